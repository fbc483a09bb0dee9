// Trunk post-build hook (before minify-js.mjs): the first paints, drawn by the core at build
// time (examples/first_paint.rs; see src/view/export/first_paint.rs).
//
// The default page's — its run at the start, in the page around it — goes into index.html, at the
// top of the body (after its <noscript> note), with a blocking `first-paint.js` in the
// head. Every other built-in link's (each preset, lesson, fix and interview question, as
// a page and as an embed) is written into first/, one small file each, which
// first-paint.js fetches for the link it was opened at and shows in place of the default
// run, hidden meanwhile. The app removes the picture as it mounts. All of it is plain
// markup and external scripts: nothing inline for the CSP.
//
// first-paint.js also preloads the build the page will run (the first load on the
// default page, the whole app on any other link), so the head asks for nothing a link
// does not use.
//
//   node scripts/first-paint.mjs [DIR]    (DIR defaults to $TRUNK_STAGING_DIR)

import { execFileSync } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

const dir = process.argv[2] ?? process.env.TRUNK_STAGING_DIR;
if (!dir) throw new Error('first-paint: no directory (pass one, or run as a Trunk hook)');
const base = process.env.TRUNK_PUBLIC_URL ?? '/';

const fragment = execFileSync(
  'cargo',
  ['run', '--quiet', '--no-default-features', '--example', 'first_paint'],
  { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] },
);
if (!fragment.startsWith('<div id="first-paint"')) {
  throw new Error(`first-paint: unexpected output: ${fragment.slice(0, 80)}`);
}

const file = join(dir, 'index.html');
let html = await readFile(file, 'utf8');
if (html.includes('id="first-paint"')) {
  console.log('first-paint: already in index.html');
} else {
  const guard = `<script src="${base}first-paint.js"></script>`;
  html = html.replace('</head>', `${guard}</head>`);
  if (!/<script\b[^>]*\bdata-wasm=/.test(html)) {
    throw new Error('first-paint: no script tag with data-wasm in index.html');
  }
  // The stylesheets go after the guard: a blocking script waits for every stylesheet
  // above it before it runs, and the guard starts the download of the build the page will
  // run and, on a deep link, of its picture. The page still paints nothing before its
  // styles arrive. The guard itself must stay after boot.js's tag, which it reads.
  const sheets = html.match(/<link\b[^>]*\brel="?stylesheet"?[^>]*>/g) ?? [];
  for (const sheet of sheets) html = html.replace(sheet, '');
  html = html.replace(guard, `${guard}${sheets.join('')}`);
  // After the page's <noscript> note, if it has one: a reader without JavaScript reads
  // that first, above a picture whose controls will never wake.
  const body = html.match(/<body>(\s*<noscript>[\s\S]*?<\/noscript>)?/);
  if (body) html = html.replace(body[0], `${body[0]}${fragment}`);
  if (!html.includes(fragment) || !html.includes(guard)) {
    throw new Error('first-paint: index.html has no <body> or </head> to write into');
  }
  await writeFile(file, html);
  console.log(`first-paint: ${fragment.length} bytes of the default run into index.html`);
}

// Every built-in link's picture, one file each, named as first-paint.js looks for it.
const names = JSON.parse(
  execFileSync(
    'cargo',
    ['run', '--quiet', '--no-default-features', '--example', 'first_paint', '--', '--all', join(dir, 'first')],
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] },
  ),
);
console.log(`first-paint: ${names.length} pictures of built-in links (page and embed) into first/`);

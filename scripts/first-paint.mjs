// Trunk post-build hook (before slim-js.mjs): puts the default page's first paint into
// index.html — the whole run of the default scenario, drawn by the core at build time
// (examples/first_paint.rs; see src/view/export/first_paint.rs) — as the body's first
// element, and a blocking `first-paint.js` in the head that hides it before the first
// paint when the page was opened at a link to anything else. The app removes it as it
// mounts. Both are plain markup and an external script: nothing inline for the CSP.
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
  // The stylesheets go after the guard: a blocking script waits for every stylesheet
  // above it before it runs, and the guard starts the wasm's download, which is what a
  // reader waits for before Play responds (15–25 ms sooner on Slow 4G). The page still
  // paints nothing before its styles arrive. The guard itself must stay after boot.js's
  // tag, which it reads.
  const sheets = html.match(/<link\b[^>]*\brel="?stylesheet"?[^>]*>/g) ?? [];
  for (const sheet of sheets) html = html.replace(sheet, '');
  html = html.replace(guard, `${guard}${sheets.join('')}`);
  html = html.replace(/<body>/, `<body>${fragment}`);
  if (!html.includes(fragment) || !html.includes(guard)) {
    throw new Error('first-paint: index.html has no <body> or </head> to write into');
  }
  await writeFile(file, html);
  console.log(`first-paint: ${fragment.length} bytes of the default run into index.html`);
}

// Trunk post-build hook (before slim-js.mjs): puts the default page's first paint into
// index.html — the whole run of the default scenario, drawn by the core at build time
// (examples/first_paint.rs; see src/view/export/first_paint.rs) in the page around it —
// at the top of the body (after its <noscript> note), and a blocking `first-paint.js` in
// the head that hides it before the first paint when the page was opened at a link to
// anything else. The app removes it as it mounts. Both are plain markup and an external
// script: nothing inline for the CSP.
//
// It also puts a preload of the first load's wasm into the head, so its download starts
// as the head is parsed, not a round trip later when first-paint.js has arrived and run
// (about 100 ms sooner for Play on Slow 4G). A page opened at a link to anything else does
// not run the first load: first-paint.js removes that link, which cancels the download.
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
  // The wasm named by boot.js's tag (Trunk's hashed name, under `--public-url`), preloaded
  // the way wasm-bindgen's glue fetches it (a CORS fetch, same-origin credentials), so the
  // glue takes this download rather than starting its own. The guard finds it by its id.
  const boot = html.match(/<script\b[^>]*\bdata-wasm=("[^"]*"|[^\s>]+)[^>]*>/);
  if (!boot) throw new Error('first-paint: no script tag with data-wasm in index.html');
  const wasm = boot[1].replace(/^"|"$/g, '');
  const preload = `<link rel=preload id=first-load-wasm href="${wasm}" as=fetch crossorigin>`;
  html = html.replace(boot[0], `${preload}${boot[0]}`);
  // The stylesheets go after the guard: a blocking script waits for every stylesheet
  // above it before it runs, and the guard cancels the first load's wasm on a link to
  // anything else and starts the download of the whole app in its place, which is what
  // such a reader waits for. The page still paints nothing before its styles arrive. The
  // guard itself must stay after boot.js's tag and the preload, which it reads.
  const sheets = html.match(/<link\b[^>]*\brel="?stylesheet"?[^>]*>/g) ?? [];
  for (const sheet of sheets) html = html.replace(sheet, '');
  html = html.replace(guard, `${guard}${sheets.join('')}`);
  // After the page's <noscript> note, if it has one: a reader without JavaScript reads
  // that first, above a picture whose controls will never wake.
  const body = html.match(/<body>(\s*<noscript>[\s\S]*?<\/noscript>)?/);
  if (body) html = html.replace(body[0], `${body[0]}${fragment}`);
  if (!html.includes(fragment) || !html.includes(guard) || !html.includes(preload)) {
    throw new Error('first-paint: index.html has no <body> or </head> to write into');
  }
  await writeFile(file, html);
  console.log(`first-paint: ${fragment.length} bytes of the default run into index.html`);
}

// Trunk post-build hook: strips comments and indentation from the JavaScript Trunk ships
// unminified (wasm-bindgen's glue and static/boot.js), then writes the glue's new SRI hash
// into index.html. Trunk's own `minify` covers the HTML and the CSS but not these files.
//
// It is a lexer, not a regex pass: strings, template literals (with `${}` nesting) and
// regular-expression literals are copied byte for byte; only whitespace at the start of a
// line and comments outside them go. Names and statements are untouched, so a stack trace
// still reads. About 1 KB gzip off the first load.
//
//   node scripts/slim-js.mjs [DIR]    (DIR defaults to $TRUNK_STAGING_DIR)

import { createHash } from 'node:crypto';
import { readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** `src` without comments and without the indentation of each line. */
export function slim(src) {
  let out = '';
  let i = 0;
  let lineStart = true;
  // The last significant character of code: decides whether `/` starts a regex.
  let prev = '';
  // Open template literals' brace depths, so `}` knows when it closes a `${`.
  const templates = [];
  let braces = 0;
  const n = src.length;
  const copyQuoted = (q) => {
    let j = i + 1;
    while (j < n && src[j] !== q) j += src[j] === '\\' ? 2 : 1;
    out += src.slice(i, j + 1);
    i = j + 1;
  };
  const copyTemplate = () => {
    // From just after a backtick or a closing `}` of `${`: to the closing backtick or `${`.
    let j = i;
    while (j < n && src[j] !== '`' && !(src[j] === '$' && src[j + 1] === '{')) {
      j += src[j] === '\\' ? 2 : 1;
    }
    if (src[j] === '`') {
      out += src.slice(i, j + 1);
      i = j + 1;
      prev = '`';
    } else {
      out += src.slice(i, j + 2);
      i = j + 2;
      templates.push(braces);
      braces += 1;
      prev = '{';
    }
  };
  while (i < n) {
    const c = src[i];
    if (lineStart && (c === ' ' || c === '\t')) {
      i += 1;
      continue;
    }
    if (c === '\n') {
      // Drop empty lines; keep every other newline (automatic semicolons rely on them).
      if (!lineStart) out += '\n';
      lineStart = true;
      i += 1;
      continue;
    }
    if (c === '/' && src[i + 1] === '/') {
      while (i < n && src[i] !== '\n') i += 1;
      continue;
    }
    if (c === '/' && src[i + 1] === '*') {
      const end = src.indexOf('*/', i + 2);
      i = end < 0 ? n : end + 2;
      // Never glue two tokens together where the comment stood between them.
      if (!lineStart) out += ' ';
      continue;
    }
    lineStart = false;
    if (c === '"' || c === "'") {
      copyQuoted(c);
      prev = c;
      continue;
    }
    if (c === '`') {
      out += c;
      i += 1;
      copyTemplate();
      continue;
    }
    if (c === '/' && (prev === '' || '(,=:[!&|?{};+-*%<>~^'.includes(prev) || /return$|typeof$/.test(out.trimEnd()))) {
      // A regular-expression literal: copy to its closing `/`, past classes and escapes.
      let j = i + 1;
      let inClass = false;
      while (j < n && (inClass || src[j] !== '/')) {
        if (src[j] === '\\') j += 1;
        else if (src[j] === '[') inClass = true;
        else if (src[j] === ']') inClass = false;
        j += 1;
      }
      j += 1;
      while (j < n && /[a-z]/.test(src[j])) j += 1;
      out += src.slice(i, j);
      i = j;
      prev = '/';
      continue;
    }
    if (c === '{') braces += 1;
    if (c === '}') {
      braces -= 1;
      if (templates.length && templates[templates.length - 1] === braces) {
        templates.pop();
        out += c;
        i += 1;
        copyTemplate();
        continue;
      }
    }
    out += c;
    if (c !== ' ' && c !== '\t' && c !== '\r') prev = c;
    i += 1;
  }
  return out;
}

async function main() {
  const dir = process.argv[2] ?? process.env.TRUNK_STAGING_DIR;
  if (!dir) throw new Error('slim-js: no directory (pass one, or run as a Trunk hook)');
  const files = (await readdir(dir)).filter((f) => f.endsWith('.js'));
  let html = await readFile(join(dir, 'index.html'), 'utf8');
  for (const f of files) {
    const path = join(dir, f);
    const before = await readFile(path);
    const after = Buffer.from(slim(before.toString('utf8')));
    await writeFile(path, after);
    // Keep the page's Subresource Integrity true to the new bytes.
    const hash = (b) => `sha384-${createHash('sha384').update(b).digest('base64')}`;
    html = html.split(hash(before)).join(hash(after));
    console.log(`slim-js: ${f} ${before.length} → ${after.length} bytes`);
  }
  await writeFile(join(dir, 'index.html'), html);
}

if (import.meta.url === `file://${process.argv[1]}`) await main();

// The post-build JS minifier (scripts/minify-js.mjs, esbuild): code that hides
// comment-like text in strings, templates and regular expressions computes the same after
// it, and every JS file the page ships is minified. The other e2e tests run the app on the
// minified glue.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { minify } from '../../scripts/minify-js.mjs';
import { DIST } from './lib.mjs';

const TRICKY = String.raw`
    // first remark
    const url = 'http://example.org/*not a comment*/';   // trailing
    const q = "it's // fine";
    /* block
       comment */ const re = /\[object ([^\]]+)\]/.exec('[object Thing]')?.[1];
    const half = 10 / 2 / 5;
    const t = ${'`'}a // b ${'${'}url + ${'`'}nested /* x */ ${'${'}q}${'`'}} c
   kept indentation${'`'};
    function f(x) {
        return x/2; // halve
    }
    return [url, q, re, half, t, f(8)];
`;

test('minifying keeps every string, template and regex, and the result', async () => {
  // As a function body (a bare `return` is not a script): wrapped, minified, unwrapped.
  const out = await minify(`function body() {${TRICKY}}`);
  assert.ok(out.length < TRICKY.length);
  assert.ok(!out.includes('first remark') && !out.includes('halve') && !out.includes('block'));
  const run = (src) => new Function(`${src}; return body();`)();
  assert.deepEqual(run(out), new Function(TRICKY)());
});

test('the shipped JS has no comment lines and no indentation left', async () => {
  const files = (await readdir(DIST)).filter((f) => f.endsWith('.js'));
  assert.ok(files.length >= 2, 'the glue and boot.js');
  for (const f of files) {
    const src = await readFile(join(DIST, f), 'utf8');
    assert.ok(!/^\s*\/\//m.test(src), `${f} has no comment lines`);
    assert.ok(!/^[ \t]+\S/m.test(src.replace(/`[^`]*`/g, '')), `${f} has no indentation`);
  }
});

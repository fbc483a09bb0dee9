// End-to-end: Leaseline as plain static files — served with a strict Content-Security-Policy
// (no inline script, no eval beyond WebAssembly), and built for a sub-path the way a course
// site would host it (`trunk build --release --public-url /courses/locks/`, which
// `make test` writes to target/dist-subpath/).

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { ROOT, launchBrowser, openApp, playback, serveDist, stopServer, urlOf } from './lib.mjs';

const CSP = [
  "default-src 'self'",
  "script-src 'self' 'wasm-unsafe-eval'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "frame-ancestors 'self'",
].join('; ');

const SUBPATH = '/courses/locks/';

/** Records CSP violations on the page before any script runs. */
async function watchCsp(context) {
  await context.addInitScript(() => {
    window.__csp = [];
    document.addEventListener('securitypolicyviolation', (e) =>
      window.__csp.push(`${e.violatedDirective} ${e.blockedURI}`),
    );
  });
}

/** Plays the default scenario to its end and returns the verdict heading. */
async function playToEnd(page) {
  await playback(page).button('Jump to end').click();
  return page.getByRole('region', { name: 'Verdict' }).getByRole('heading').innerText();
}

describe('static and strict', () => {
  let browser;
  before(async () => {
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
  });

  test('the page runs under a strict Content-Security-Policy with no violation', async () => {
    const server = await serveDist({ headers: { 'content-security-policy': CSP } });
    try {
      const { context, page, problems } = await openApp(browser, urlOf(server), {}, watchCsp);
      try {
        assert.match(await playToEnd(page), /^Unsafe/);
        // The whole app, loaded on demand, runs under the same policy.
        await page.getByRole('button', { name: 'Lessons' }).click();
        await page.getByRole('navigation', { name: 'Lessons' }).getByRole('listitem').first().waitFor();
        assert.deepEqual(await page.evaluate(() => window.__csp), []);
        assert.deepEqual(problems, []);
      } finally {
        await context.close();
      }
    } finally {
      await stopServer(server);
    }
  });

  test('a sub-path build loads and runs under its prefix', async () => {
    const server = await serveDist({ dir: join(ROOT, 'target', 'dist-subpath'), prefix: SUBPATH });
    try {
      const url = new URL(SUBPATH, urlOf(server)).href;
      const { context, page, problems } = await openApp(browser, url);
      try {
        assert.match(await playToEnd(page), /^Unsafe/);
        // The whole app, loaded on demand, comes from under the prefix too.
        await page.getByRole('button', { name: 'Lessons' }).click();
        await page.getByRole('navigation', { name: 'Lessons' }).getByRole('listitem').first().waitFor();
        assert.deepEqual(problems, [], 'every asset came from under the prefix');
      } finally {
        await context.close();
      }
    } finally {
      await stopServer(server);
    }
  });
});

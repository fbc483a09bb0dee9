// End-to-end: the built app (dist/, from `trunk build --release`) in a real Chromium, the
// way a person opens it. Run with `node --test tests/e2e/` (part of `make test`).
//
// The test serves dist/ itself on a free 127.0.0.1 port, drives /usr/bin/chromium through
// playwright-core, and closes both in `after`, so nothing is left running even when a check
// fails. Screenshots go to target/e2e/ so a person can look at what the assertions saw.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { mkdir, readFile } from 'node:fs/promises';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { chromium } from 'playwright-core';

const ROOT = resolve(import.meta.dirname ?? new URL('.', import.meta.url).pathname, '..', '..');
const DIST = join(ROOT, 'dist');
const SHOTS = join(ROOT, 'target', 'e2e');

const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.wasm': 'application/wasm',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.json': 'application/json',
};

/** A static file server for dist/, listening on a free port of 127.0.0.1. */
async function serveDist() {
  const server = createServer(async (req, res) => {
    const path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    const file = normalize(join(DIST, path.endsWith('/') ? path + 'index.html' : path));
    if (file !== DIST && !file.startsWith(DIST + sep)) {
      res.writeHead(403).end();
      return;
    }
    try {
      const body = await readFile(file);
      res.writeHead(200, {
        'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
        'cache-control': 'no-store',
      });
      res.end(body);
    } catch {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    }
  });
  await new Promise((ok, fail) => {
    server.once('error', fail);
    server.listen(0, '127.0.0.1', ok);
  });
  return server;
}

/** Opens the app in a new context and records everything that went wrong on the page. */
async function openApp(browser, url, contextOptions) {
  const context = await browser.newContext(contextOptions);
  const page = await context.newPage();
  const problems = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error') problems.push(`console error: ${msg.text()}`);
  });
  page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
  page.on('requestfailed', (req) =>
    problems.push(`request failed: ${req.url()} (${req.failure()?.errorText})`),
  );
  page.on('response', (res) => {
    if (res.status() >= 400) problems.push(`HTTP ${res.status()}: ${res.url()}`);
  });
  await page.goto(url, { waitUntil: 'load' });
  // The wasm app renders after load; the header is its first landmark.
  await page.getByRole('banner').waitFor({ state: 'visible', timeout: 15_000 });
  return { context, page, problems };
}

describe('the app shell', () => {
  let server;
  let browser;
  let url;

  before(async () => {
    await readFile(join(DIST, 'index.html')).catch(() => {
      throw new Error('dist/index.html is missing: run `trunk build --release` first');
    });
    await mkdir(SHOTS, { recursive: true });
    server = await serveDist();
    url = `http://127.0.0.1:${server.address().port}/`;
    browser = await chromium.launch({
      executablePath: '/usr/bin/chromium',
      headless: true,
      args: CHROMIUM_ARGS,
    });
  });

  after(async () => {
    await browser?.close();
    if (server) {
      server.closeAllConnections();
      await new Promise((ok) => server.close(ok));
    }
  });

  test('renders its landmarks and controls, with no errors', async () => {
    const { context, page, problems } = await openApp(browser, url, {
      viewport: { width: 1280, height: 800 },
    });
    try {
      assert.match(await page.title(), /Leaseline/);
      const banner = page.getByRole('banner');
      assert.match(await banner.innerText(), /Leaseline/);
      assert.match(await banner.innerText(), /fencing tokens/);

      for (const landmark of [
        page.getByRole('main'),
        page.getByRole('region', { name: 'Space-time diagram' }),
        page.getByRole('toolbar', { name: 'Playback' }),
        page.getByRole('contentinfo'),
      ]) {
        assert.ok(await landmark.isVisible(), `${landmark} should be visible`);
      }

      const toolbar = page.getByRole('toolbar', { name: 'Playback' });
      // The default scenario is loaded and ready to play; at t = 0 there is nothing behind.
      for (const [name, disabled] of [['Play', false], ['Step back', true], ['Step forward', false]]) {
        const button = toolbar.getByRole('button', { name, exact: true });
        assert.ok(await button.isVisible(), `button "${name}" should be visible`);
        assert.equal(await button.isDisabled(), disabled, `button "${name}" disabled`);
      }
      assert.ok(await toolbar.getByRole('slider', { name: 'Time' }).isVisible());

      // On a laptop screen, Play and the whole diagram show without scrolling.
      const diagram = await page.getByRole('region', { name: 'Space-time diagram' }).boundingBox();
      assert.ok(diagram.y + diagram.height <= 800, `the diagram ends at ${diagram.y + diagram.height}px`);

      await page.screenshot({ path: join(SHOTS, 'shell.png'), fullPage: true });
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  });

  test('fits a 360px-wide screen without sideways scrolling', async () => {
    const { context, page, problems } = await openApp(browser, url, {
      viewport: { width: 360, height: 740 },
    });
    try {
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      assert.equal(overflow, 0, 'the page is wider than the screen');
      const toolbar = page.getByRole('toolbar', { name: 'Playback' });
      for (const name of ['Play', 'Step back', 'Step forward']) {
        assert.ok(await toolbar.getByRole('button', { name, exact: true }).isVisible());
      }
      await page.screenshot({ path: join(SHOTS, 'shell-360.png'), fullPage: true });
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  });

  test('follows the dark colour scheme', async () => {
    const background = async (colorScheme) => {
      const { context, page, problems } = await openApp(browser, url, {
        viewport: { width: 1280, height: 800 },
        colorScheme,
      });
      try {
        if (colorScheme === 'dark') {
          await page.screenshot({ path: join(SHOTS, 'shell-dark.png'), fullPage: true });
        }
        assert.deepEqual(problems, []);
        return await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
      } finally {
        await context.close();
      }
    };
    const light = await background('light');
    const dark = await background('dark');
    assert.notEqual(light, dark, 'dark mode should change the page background');
  });
});

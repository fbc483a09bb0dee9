// Shared helpers for the end-to-end tests and the frame benchmark: a static server for
// dist/ on a free 127.0.0.1 port, /usr/bin/chromium through playwright-core, and a page
// opener that records everything that went wrong on the page.
//
// Not a test file itself (its name matches none of `node --test`'s patterns).

import { createServer } from 'node:http';
import { gzipSync } from 'node:zlib';
import { mkdir, readFile } from 'node:fs/promises';
import { after, before } from 'node:test';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { chromium } from 'playwright-core';

export const ROOT = resolve(
  import.meta.dirname ?? new URL('.', import.meta.url).pathname,
  '..',
  '..',
);
export const DIST = join(ROOT, 'dist');
export const SHOTS = join(ROOT, 'target', 'e2e');

export const CHROMIUM_ARGS = [
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
  '.png': 'image/png',
  '.woff': 'font/woff',
  '.ttf': 'font/ttf',
  '.md': 'text/markdown; charset=utf-8',
};

/**
 * How long a test waits for a state it needs (an attribute, a frame counter, the address)
 * before it fails. Every wait polls for its state and goes on the moment it holds, so this is
 * no delay: it only bounds how long a broken page can hang a test. It is generous because a
 * machine busy with other builds runs a page several times slower (the end-to-end tier
 * passes with a CPU hog on both cores); `LEASELINE_E2E_WAIT_MS` changes it.
 */
export const WAIT = Number(process.env.LEASELINE_E2E_WAIT_MS) || 60_000;

/** Fails with a clear message when the release build is missing. */
export async function requireDist() {
  await readFile(join(DIST, 'index.html')).catch(() => {
    throw new Error('dist/index.html is missing: run `trunk build --release` first');
  });
}

/**
 * A static file server for a build (dist/ unless `dir` says otherwise), listening on a free
 * port of 127.0.0.1. `prefix` serves it under a sub-path (as a course site would); `headers`
 * are added to every response (a Content-Security-Policy, say). `gzip` sends every file
 * gzip-encoded (level 9) to a client that accepts it, as a production host would.
 */
export async function serveDist({ dir = DIST, prefix = '/', headers = {}, gzip = false } = {}) {
  const server = createServer(async (req, res) => {
    const full = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    if (!full.startsWith(prefix)) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    const path = '/' + full.slice(prefix.length);
    const file = normalize(join(dir, path.endsWith('/') ? path + 'index.html' : path));
    if (file !== dir && !file.startsWith(dir + sep)) {
      res.writeHead(403).end();
      return;
    }
    try {
      let body = await readFile(file);
      const encoded = gzip && /\bgzip\b/.test(req.headers['accept-encoding'] ?? '');
      if (encoded) body = gzipSync(body, { level: 9 });
      res.writeHead(200, {
        'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
        'cache-control': 'no-store',
        ...(encoded ? { 'content-encoding': 'gzip' } : {}),
        ...headers,
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

/** Serves examples/ on its own port of 127.0.0.1: a host page on a different origin from the app. */
export async function serveExamples() {
  const server = createServer(async (req, res) => {
    try {
      const body = await readFile(join(ROOT, 'examples', new URL(req.url, 'http://x').pathname.slice(1)));
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  return server;
}

/**
 * A page of our own making served from 127.0.0.1 on a free port, as a course platform
 * would serve a page an author pasted code into: `pages` maps a path ("/unit-2.html") to
 * its HTML. (Served for real rather than through a Playwright route: Chromium treats a
 * routed page as public and refuses its requests to loopback addresses.)
 */
export async function servePages(pages) {
  const server = createServer((req, res) => {
    const body = pages[new URL(req.url, 'http://x').pathname];
    if (body === undefined) res.writeHead(404).end();
    else res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body);
  });
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  return server;
}

/** The q-quantile of sorted numbers (nearest rank): the benchmarks' p50 and p95. */
export function quantile(sorted, q) {
  if (sorted.length === 0) return NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[i];
}

/** The server's base URL. */
export function urlOf(server) {
  return `http://127.0.0.1:${server.address().port}/`;
}

/** Stops the server, dropping kept-alive connections so nothing lingers. */
export async function stopServer(server) {
  if (!server) return;
  server.closeAllConnections();
  await new Promise((ok) => server.close(ok));
}

/**
 * Headless /usr/bin/chromium with the project's arguments. Every context it opens (and so
 * every page) bounds Playwright's own waits — a click on an element still rendering, a
 * locator's waitFor — by WAIT, as ours are.
 */
export async function launchBrowser() {
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: CHROMIUM_ARGS,
  });
  // A context and a page both take setDefaultTimeout and setDefaultNavigationTimeout.
  const bounded = (opened) => {
    opened.setDefaultTimeout(WAIT);
    opened.setDefaultNavigationTimeout(WAIT);
    return opened;
  };
  const [newContext, newPage] = [browser.newContext.bind(browser), browser.newPage.bind(browser)];
  browser.newContext = async (...options) => bounded(await newContext(...options));
  browser.newPage = async (...options) => bounded(await newPage(...options));
  return browser;
}

/**
 * Chromium's warning for a preload the page never used (a download for nothing): a
 * problem on any page the suite opens.
 */
export const UNUSED_PRELOAD = /preloaded using link preload but not used/;

/** Whether a request was made by a frame other than the page's own document. */
function inChildFrame(page, req) {
  try {
    return req.frame() !== page.mainFrame();
  } catch {
    return false;
  }
}

/**
 * Opens the app in a new context and records everything that went wrong on the page.
 * `prepare(context)` runs before the page loads (for init scripts); `ready` is a selector
 * to wait for instead of the app's banner (for a host page that embeds the app).
 */
export async function openApp(browser, url, contextOptions, prepare, { ready } = {}) {
  const context = await browser.newContext(contextOptions);
  if (prepare) await prepare(context);
  const page = await context.newPage();
  const problems = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error') problems.push(`console error: ${msg.text()}`);
    if (UNUSED_PRELOAD.test(msg.text())) problems.push(`console warning: ${msg.text()}`);
  });
  page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
  // Which document of the page made each request: a reload (or any navigation of the page
  // itself) cancels what the document it replaces was still loading — its icon, say —
  // and nothing failed.
  let documents = 0;
  const madeBy = new WeakMap();
  page.on('request', (req) => {
    if (req.isNavigationRequest() && !inChildFrame(page, req)) documents += 1;
    madeBy.set(req, documents);
  });
  page.on('requestfailed', (req) => {
    // A frame inside the page (the Share dialog's preview) that is closed or pointed
    // elsewhere while it loads cancels its requests: nothing failed.
    const error = req.failure()?.errorText;
    if (error === 'net::ERR_ABORTED' && inChildFrame(page, req)) return;
    if (error === 'net::ERR_ABORTED' && madeBy.get(req) < documents) return;
    // A recording's preview (a blob: URL in the page's own memory) that the page drops while
    // the image is still being read — the run changed, the panel closed — is cancelled, not
    // failed: nothing went over the network.
    if (error === 'net::ERR_ABORTED' && req.url().startsWith('blob:')) return;
    // A helper worker still loading its script when Cancel ends the search (its lead, which
    // spawned it from the same script, is terminated) is cut off, not failed: the script
    // had loaded, for the lead.
    if (/-worker\.js$/.test(new URL(req.url()).pathname) && loaded.has(req.url())) return;
    problems.push(`request failed: ${req.url()} (${error})`);
  });
  const loaded = new Set();
  page.on('response', (res) => {
    if (res.status() >= 400) problems.push(`HTTP ${res.status()}: ${res.url()}`);
    else loaded.add(res.url());
  });
  await page.goto(url, { waitUntil: 'load' });
  // The wasm app renders after load; the header is its first landmark.
  const first = ready ? page.locator(ready) : page.getByRole('banner');
  await first.waitFor({ state: 'visible', timeout: WAIT });
  return { context, page, problems };
}

/** The playback toolbar and its slider and buttons, found by their accessible names. */
export function playback(page) {
  const toolbar = page.getByRole('toolbar', { name: 'Playback' });
  return {
    toolbar,
    slider: toolbar.getByRole('slider', { name: 'Time' }),
    button: (name) => toolbar.getByRole('button', { name, exact: true }),
  };
}

/** The digest of the run on screen (the main diagram's data-digest, not compare's second). */
export const digestOf = (page) =>
  page.locator('section.diagram:not(.versus)').getAttribute('data-digest');

/** Polls `probe()` until it returns a truthy value; throws with `what` after `timeout` ms (WAIT). */
export async function until(probe, what, { timeout = WAIT, every = 100 } = {}) {
  const deadline = Date.now() + timeout;
  let last;
  for (;;) {
    last = await probe();
    if (last) return last;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeout} ms waiting for ${what}`);
    await new Promise((ok) => setTimeout(ok, every));
  }
}

/**
 * Registers `before`/`after` hooks for the enclosing `describe`: one server for dist/ and one
 * Chromium, closed at the end even when a test fails. Returns an object whose `browser` and
 * `url` are set once the hooks have run.
 */
export function harness() {
  const h = { server: null, browser: null, url: '' };
  before(async () => {
    await requireDist();
    await mkdir(SHOTS, { recursive: true });
    h.server = await serveDist();
    h.url = urlOf(h.server);
    h.browser = await launchBrowser();
  });
  after(async () => {
    await h.browser?.close();
    await stopServer(h.server);
  });
  return h;
}

// End-to-end: the first load and the whole app. The default page
// loads a small build — the player, the walkthrough, the stage's edits — and the lessons,
// the editor, the exports, sharing and comparing come when a reader first asks for one:
// the whole app is fetched then, takes over the same session (the edits, undo, the cursor)
// and does what was asked. A failed fetch says so, with a Retry that works, and the run on
// screen keeps playing meanwhile. A plain link to a built-in run, a page's or an embed's,
// loads the links' player; an embed there obeys its host page, and hands over to the
// whole app (Share, a scenario of the host's own) in the same frame.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ROOT, SHOTS, harness, openApp, playback, servePages, stopServer, until, urlOf, WAIT } from './lib.mjs';

const LAPTOP = { viewport: { width: 1280, height: 800 } };
const WHOLE = /\/leaseline_bg\.wasm$/;
const PLAYER = /\/leaseline-player_bg\.wasm$/;

/** Records every wasm file the page asks for. */
function wasmRequests(page) {
  const seen = [];
  page.on('request', (r) => {
    if (r.url().endsWith('.wasm')) seen.push(new URL(r.url()).pathname);
  });
  return seen;
}

/**
 * A course page of our own, on its own origin, embedding the app at `hash`: it records
 * every event the frame posts (`got(type)` reads them) and sends commands (`send`).
 */
async function hostPage(h, hash, prepare = null) {
  // The page is written once the server has its port: a hash may list the host's origin.
  const pages = {};
  const host = await servePages(pages);
  const at = typeof hash === 'function' ? hash(urlOf(host).slice(0, -1)) : hash;
  pages['/unit.html'] = `<!doctype html><link rel="icon" href="data:,"><title>Unit 2</title><h1>Unit 2</h1>
      <iframe title="Leaseline" width="640" height="560" src="${h.url}${at}"></iframe>
      <script>
        window.received = [];
        addEventListener('message', (e) => e.data && e.data.leaseline === 1 && window.received.push(e.data));
        window.send = (m) => document.querySelector('iframe').contentWindow.postMessage({ leaseline: 1, ...m }, '*');
      </script>`;
  const { context, page, problems } = await openApp(h.browser, `${urlOf(host)}unit.html`, LAPTOP, prepare, { ready: 'h1' });
  const wasm = wasmRequests(page);
  const frame = page.frameLocator('iframe');
  const got = (type) => page.evaluate((t) => window.received.filter((e) => e.type === t), type);
  return { host, context, page, problems, wasm, frame, got };
}

describe('the first load and the whole app', () => {
  const h = harness();

  test('the default page plays, steps and edits without the whole app; the editor brings it, with the session', async () => {
    const context = await h.browser.newContext(LAPTOP);
    const page = await context.newPage();
    const wasm = wasmRequests(page);
    const problems = [];
    page.on('pageerror', (e) => problems.push(e.message));
    try {
      await page.goto(h.url, { waitUntil: 'load' });
      await page.getByRole('banner').waitFor();
      const { toolbar, button } = playback(page);
      await toolbar.waitFor();
      // Play, pause, step: the first load's own work.
      await button('Play').click();
      await page.waitForTimeout(400);
      await button('Pause').click();
      for (let i = 0; i < 3; i++) await button('Step forward').click();
      // An edit the first load makes itself: fencing on (the F key), undoable.
      await page.keyboard.press('f');
      await until(async () => (await page.locator('button.fence.on').count()) === 1, 'fencing on');
      assert.ok(wasm.every((u) => !WHOLE.test(u)), `no whole app yet: ${wasm.join(', ')}`);
      assert.ok(wasm.some((u) => /leaseline-lite-.*_bg\.wasm$/.test(u)), 'the first load ran');
      const step = await page.getByRole('slider', { name: 'Time' }).getAttribute('aria-valuetext');

      // The editor is the whole app's: asking for it loads it, and it opens.
      await page.locator('details.panel.editor > summary').click();
      const editor = page.locator('details.panel.editor[open]');
      await until(async () => (await page.locator('details.panel.editor[open] textarea, details.panel.editor[open] input').count()) > 0, 'the editor is open in the whole app');
      assert.ok(wasm.some((u) => WHOLE.test(u)), 'the whole app was fetched');
      await editor.scrollIntoViewIfNeeded();
      await page.screenshot({ path: join(SHOTS, 'on-demand-editor.png') });
      // The session came along: the fence, the cursor, and the undo history.
      assert.equal(await page.locator('button.fence.on').count(), 1, 'fencing still on');
      assert.equal(await page.getByRole('slider', { name: 'Time' }).getAttribute('aria-valuetext'), step);
      const undo = page.getByRole('button', { name: 'Undo', exact: true }).first();
      assert.ok(await undo.isEnabled(), 'undo reaches the edit made before the handover');
      await undo.click();
      await until(async () => (await page.locator('button.fence.on').count()) === 0, 'undo turns fencing off');
      assert.equal(await page.getByRole('banner').count(), 1, 'one app on the page');
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  });

  test('a failed fetch of the whole app says so, keeps the run, and Retry works', async () => {
    const { context, page, problems } = await openApp(h.browser, h.url, LAPTOP);
    try {
      await context.route(WHOLE, (route) => route.abort());
      await page.getByRole('button', { name: 'Lessons' }).click();
      const alert = page.getByRole('alert').filter({ hasText: 'did not load' });
      await alert.waitFor();
      await page.screenshot({ path: join(SHOTS, 'on-demand-failed.png') });
      // The run on screen still plays.
      const { button } = playback(page);
      await button('Step forward').click();
      await context.unroute(WHOLE);
      await alert.getByRole('button', { name: 'Retry' }).click();
      const menu = page.getByRole('navigation', { name: 'Lessons' });
      await menu.getByRole('listitem').first().waitFor();
      // The aborted fetch is the one expected failure.
      assert.deepEqual(
        problems.filter((p) => !/leaseline_bg\.wasm|net::ERR_FAILED/.test(p)),
        [],
      );
    } finally {
      await context.close();
    }
  });

  test('a lesson\'s, a fix\'s and a question\'s link, a page\'s or an embed\'s (with its options), open the links\' player, any other link the whole app; never the first load', async () => {
    for (const [hash, build] of [
      ['#s=check-then-write', PLAYER],
      ['#s=check-then-write/fencing', PLAYER],
      ['#quiz=2', PLAYER],
      ['#s=check-then-write&embed=1', PLAYER],
      ['#quiz=1&embed=1', PLAYER],
      ['#s=check-then-write&embed=1&autoplay=1&view=diagram', PLAYER],
      ['#s=gc-pause&embed=1&from=25000&to=52000', PLAYER],
      ['#quiz=1&embed=1&from=1000', WHOLE],
      ['#s=check-then-write&t=3000', WHOLE],
      ['#s=check-then-write&embed=1&origins=ftp://course.example', WHOLE],
    ]) {
      const context = await h.browser.newContext(LAPTOP);
      const page = await context.newPage();
      const wasm = wasmRequests(page);
      const glue = [];
      page.on('request', (r) => /\/leaseline-lite-[0-9a-f]+\.js$/.test(r.url()) && glue.push(r.url()));
      try {
        await page.goto(`${h.url}${hash}`, { waitUntil: 'load' });
        await page.getByRole('banner').waitFor();
        await page.locator('section.diagram[data-digest]').waitFor();
        assert.deepEqual(wasm, [wasm.find((u) => build.test(u))].filter(Boolean), `${hash}: ${build} alone`);
        assert.equal(wasm.length, 1, `${hash}: one build`);
        assert.deepEqual(glue, [], `${hash}: not the first load`);
      } finally {
        await context.close();
      }
    }
  });

  test('an embed in the links\' player obeys its host; Share and a host\'s own scenario bring the whole app into the same frame, which tells nothing twice', async () => {
    const scenario = JSON.parse(await readFile(join(ROOT, 'src/teach/flavors/redis-failover.json'), 'utf8'));
    scenario.name = 'The host\'s own failover';
    const { host, context, page, problems, wasm, frame, got } = await hostPage(h, '#s=check-then-write&embed=1');
    try {
      await until(async () => (await got('ready')).length === 1, 'ready from the player');
      // Seek, play and pause: the player's own.
      await page.evaluate(() => window.send({ type: 'seek', t_ms: 30000 }));
      await until(async () => (await got('cursor')).some((e) => e.t_ms === 30000), 'the cursor at 30 s');
      assert.equal(await frame.getByRole('slider', { name: 'Time' }).inputValue(), '30000');
      await page.evaluate(() => window.send({ type: 'play' }));
      await frame.getByRole('button', { name: 'Pause' }).waitFor();
      await page.evaluate(() => window.send({ type: 'pause' }));
      await frame.getByRole('button', { name: 'Play' }).waitFor();
      // A bad message is refused by name there too.
      await page.evaluate(() => window.send({ type: 'seek', t_ms: -5 }));
      await until(async () => (await got('error')).some((e) => /^t_ms:/.test(e.message)), 'the error event');
      assert.ok(!wasm.some((u) => WHOLE.test(u)), `the player obeyed alone: ${wasm.join(', ')}`);
      const steps = (await got('cursor')).length;

      // Share: the whole app opens its dialog in the frame, still an embed, the cursor kept.
      const at = await frame.getByRole('slider', { name: 'Time' }).inputValue();
      await frame.getByRole('button', { name: 'Share' }).click();
      await frame.locator('#share-dialog').waitFor();
      assert.ok(wasm.some((u) => WHOLE.test(u)), 'the whole app was fetched');
      assert.equal(await frame.locator('.shell.embed').count(), 1, 'still an embed');
      assert.equal(await frame.getByRole('slider', { name: 'Time' }).inputValue(), at, 'the cursor where it was');
      assert.equal((await got('ready')).length, 1, 'the host is not told ready again');
      assert.equal((await got('cursor')).length, steps, 'nor the cursor it has heard of');

      // The host's own scenario, pretty-printed across lines: loaded in the frame.
      await page.evaluate((sc) => window.send({ type: 'load', scenario: sc }), scenario);
      await until(async () => (await frame.locator('.embed-title').innerText()).includes('The host\'s own failover'), 'the host\'s scenario on screen');
      assert.equal(await frame.locator('.shell.embed').count(), 1);
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
      await stopServer(host);
    }
  });

  test('an embed with a course author\'s options plays in the links\' player: its picture leaves the guide out, it plays on load, and only the listed origins drive it', async () => {
    // The player waits until the picture has been looked at.
    let open;
    const gate = new Promise((ok) => (open = ok));
    // (Asked for before the host page has loaded: recorded from the start.)
    const asked = [];
    const prepare = (context) => {
      context.on('request', (r) => r.url().endsWith('.wasm') && asked.push(new URL(r.url()).pathname));
      return context.route(PLAYER, async (r) => {
        await gate;
        await r.continue();
      });
    };
    const options = (origin) => `#s=slow-client-clock&embed=1&autoplay=1&view=diagram&origins=${origin}`;
    const { host, context, page, problems, frame, got } = await hostPage(h, options, prepare);
    try {
      await frame.locator('#first-paint.embed .timeline-frame').waitFor();
      assert.equal(await frame.locator('#first-paint .guide').count(), 0, 'the picture has no guide');
      assert.match(await frame.locator('#first-paint .embed-title').innerText(), /clock/i);
      open();
      await until(async () => (await got('ready')).length === 1, 'ready from the player, to the listed host');
      // Playing as it loaded; the host pauses it and seeks.
      await frame.getByRole('button', { name: 'Pause' }).waitFor();
      await page.evaluate(() => window.send({ type: 'pause' }));
      await frame.getByRole('button', { name: 'Play' }).waitFor();
      await page.evaluate(() => window.send({ type: 'seek', t_ms: 30000 }));
      await until(async () => (await got('cursor')).some((e) => e.t_ms === 30000), 'the cursor at 30 s');
      assert.equal(await frame.locator('.guide').count(), 0, 'the diagram, its controls and the caption only');
      assert.equal(await frame.locator('#first-paint').count(), 0, 'the picture gave way');
      assert.ok(asked.some((u) => PLAYER.test(u)) && !asked.some((u) => WHOLE.test(u)), asked.join(', '));
      await page.screenshot({ path: join(SHOTS, 'embed-options-player.png') });
      assert.deepEqual(problems, []);
    } finally {
      open();
      await context.close();
      await stopServer(host);
    }
    // A frame whose link lists another origin: this page neither hears from it nor drives it.
    const other = await hostPage(h, '#s=slow-client-clock&embed=1&origins=https://elsewhere.example');
    try {
      await other.frame.locator('section.diagram[data-digest]').waitFor();
      const build = other.page.frames().find((f) => f !== other.page.mainFrame());
      assert.equal(await build.evaluate(() => window.leaselineBuild.player), true, 'the links\' player');
      await other.page.evaluate(() => window.send({ type: 'seek', t_ms: 30000 }));
      await other.page.waitForTimeout(500);
      assert.equal(await other.frame.getByRole('slider', { name: 'Time' }).inputValue(), '0');
      assert.deepEqual(await other.page.evaluate(() => window.received), []);
      // (Chromium says, in the console, that what the frame posted to the listed origin did
      // not reach this page: that is the allow-list at work.)
      const foreign = /does not match the recipient window's origin/;
      assert.deepEqual(other.problems.filter((p) => !foreign.test(p)), []);
    } finally {
      await other.context.close();
      await stopServer(other.host);
    }
  });

  test('a host\'s own scenario sent to an embed in the links\' player is loaded by the whole app, or refused by name', async () => {
    const scenario = JSON.parse(await readFile(join(ROOT, 'src/teach/flavors/redis-failover.json'), 'utf8'));
    // Loaded: the whole app comes for it, and the host hears of the new run as of any.
    {
      const { host, context, page, problems, wasm, frame, got } = await hostPage(h, '#s=check-then-write&embed=1');
      try {
        await until(async () => (await got('ready')).length === 1, 'ready from the player');
        await page.evaluate((sc) => window.send({ type: 'load', scenario: sc }), scenario);
        await until(async () => (await frame.locator('.embed-title').innerText()).includes('Redis failover'), 'the host\'s scenario on screen');
        assert.ok(wasm.some((u) => WHOLE.test(u)), 'the whole app read it');
        assert.equal(await frame.locator('.shell.embed').count(), 1, 'still an embed');
        const readies = await until(async () => {
          const r = (await got('ready')).map((e) => e.digest);
          return r.length === 2 && r;
        }, 'ready for the host\'s run');
        assert.notEqual(readies[0], readies[1]);
        const digest = await frame.locator('section.diagram').getAttribute('data-digest');
        assert.equal(readies[1], digest, 'the ready names the run on screen');
        assert.deepEqual(problems, []);
      } finally {
        await context.close();
        await stopServer(host);
      }
    }
    // Refused by the player: the error names the field; the question stays, and nothing
    // more is loaded.
    const { host, context, page, problems, wasm, frame, got } = await hostPage(h, '#quiz=1&embed=1');
    try {
      await until(async () => (await got('ready')).length === 1, 'ready from the player');
      const bad = { ...scenario, clients: 'many' };
      await page.evaluate((sc) => window.send({ type: 'load', scenario: sc }), bad);
      await until(async () => (await got('error')).some((e) => /^scenario\.clients/.test(e.message)), 'the refusal, by name');
      assert.ok(!wasm.some((u) => WHOLE.test(u)), `no whole app for a refusal: ${wasm.join(', ')}`);
      assert.match(await frame.locator('.embed-title').innerText(), /question/i);
      assert.equal((await got('ready')).length, 1, 'nothing new to be ready for');
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
      await stopServer(host);
    }
  });

  test('on a lesson\'s link a tool brings the whole app once, with the session as it then stands; a question under way stays where it stood', async () => {
    const context = await h.browser.newContext(LAPTOP);
    const page = await context.newPage();
    const wasm = wasmRequests(page);
    try {
      await page.goto(`${h.url}#s=check-then-write`, { waitUntil: 'load' });
      const { button, slider } = playback(page);
      await button('Play').waitFor();
      // Step to the run's second event in the player, then ask for the settings.
      await button('Step forward').click();
      await button('Step forward').click();
      const at = await slider.inputValue();
      assert.ok(!wasm.some((u) => WHOLE.test(u)), 'the player steps on its own');
      // The whole app is slow to come: the reader steps on meanwhile, and it takes over
      // where the run then stands, not where it stood when asked.
      let release;
      const held = new Promise((ok) => (release = ok));
      await page.route(WHOLE, async (route) => {
        await held;
        await route.continue();
      });
      await page.locator('details.settings > summary').click();
      await page.getByRole('status').filter({ hasText: 'Loading the lessons' }).waitFor();
      // (Several entries can share a moment: step until the time moves.)
      for (let i = 0; i < 10 && (await slider.inputValue()) === at; i++) await button('Step forward').click();
      const later = await slider.inputValue();
      assert.notEqual(later, at, 'the player stepped while the whole app loaded');
      // A second ask while it loads is the one carried out, by the same download.
      await page.getByRole('button', { name: 'Lessons', exact: true }).click();
      release();
      await page.getByRole('navigation', { name: 'Lessons' }).waitFor();
      assert.equal(wasm.filter((u) => WHOLE.test(u)).length, 1, 'the whole app came, once');
      assert.equal(await slider.inputValue(), later, 'at the moment the reader had stepped to');
      assert.match(page.url(), /#s=check-then-write/);

      // A question: answered at its first stop in the player, then the Lessons menu.
      await page.goto(`${h.url}#quiz=2`);
      await page.reload({ waitUntil: 'load' });
      const quiz = page.getByRole('region', { name: 'Interview question' });
      await quiz.getByRole('button', { name: 'Skip to the stop' }).waitFor();
      // The whole app kept the question's plain link (`#quiz=2`): the reload is the player's.
      assert.ok(page.url().endsWith('#quiz=2'), page.url());
      assert.match(wasm.at(-1), PLAYER, 'the reload asked for the player');
      await quiz.getByRole('button', { name: 'Skip to the stop' }).click();
      const prediction = page.getByRole('group', { name: 'Your prediction' });
      await prediction.waitFor();
      await prediction.getByRole('button').nth(1).click();
      await until(async () => (await prediction.getByRole('button').nth(1).getAttribute('aria-pressed')) === 'true', 'the pick');
      const asked = await quiz.innerText();
      const before = wasm.filter((u) => WHOLE.test(u)).length;
      await page.getByRole('button', { name: 'Lessons', exact: true }).click();
      await page.getByRole('navigation', { name: 'Lessons' }).waitFor();
      assert.equal(wasm.filter((u) => WHOLE.test(u)).length, before + 1, 'the whole app came');
      assert.equal(await quiz.innerText(), asked, 'the same stop, the same words');
      assert.equal(await prediction.getByRole('button').nth(1).getAttribute('aria-pressed'), 'true', 'the same pick');
      await page.screenshot({ path: join(SHOTS, 'player-quiz-handed-over.png') });
    } finally {
      await context.close();
    }
  });

  test('a lesson\'s link asks for nothing but the links\' player, even on a slow network', async () => {
    const context = await h.browser.newContext(LAPTOP);
    const page = await context.newPage();
    try {
      const cdp = await context.newCDPSession(page);
      await cdp.send('Network.enable');
      await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
      // Chrome's "Slow 4G", as the first-paint benchmark uses.
      await cdp.send('Network.emulateNetworkConditions', {
        offline: false,
        latency: 150,
        downloadThroughput: (1.6 * 1_000_000) / 8,
        uploadThroughput: (750 * 1_000) / 8,
      });
      const asked = [];
      cdp.on('Network.requestWillBeSent', (e) => /leaseline-lite-[0-9a-f]+(_bg\.wasm|\.js)$/.test(e.request.url) && asked.push(e.request.url));
      const builds = [];
      cdp.on('Network.requestWillBeSent', (e) => /_bg\.wasm$/.test(e.request.url) && builds.push(new URL(e.request.url).pathname));
      await page.goto(`${h.url}#s=check-then-write`, { waitUntil: 'load' });
      await page.locator('section.diagram').waitFor({ timeout: WAIT });
      assert.deepEqual(asked, [], 'nothing of the first load was asked for');
      assert.deepEqual(builds, ['/leaseline-player_bg.wasm'], 'the links\' player was fetched once (its preload, taken by the glue), and nothing else');
    } finally {
      await context.close();
    }
  });
});

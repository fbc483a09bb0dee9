// Frame-cost benchmark (part of `make test`, after the end-to-end tests). In the built app
// (dist/), in headless Chromium, four measurements of the per-frame cost the app records
// in `window.leaselineFrames` (ms from the animation-frame tick, or from the zoom or pan
// that asked for a redraw, to after the render), one line each:
//
//   bench frames: N samples, p50 X ms, p95 Y ms (8 clients, E entries)
//       playing the "eight-clients" preset for about 8 s, as before (chosen on the
//       default page: the whole app plays it);
//   bench frames (the links' player): … (8 clients, E entries)
//       the same, opened at its own link: the links' player plays it;
//   bench frames (playback, big run): … (8 clients, E entries, W in the visible window)
//       playing a generated run of eight clients renewing every 40 ms, over 20,000
//       entries, drawn whole (every entry in the window);
//   bench frames (zoom and pan, 100,000 entries): …; zooming …; panning a close window …
//       the same kind of run at 100,000 entries, zoomed in from the whole run to a
//       thousandth of it and out again with + and -, and with Ctrl+wheel (the first
//       figure, all frames; then the zooms alone), and panned there by dragging and by
//       Shift+wheel (the last figure);
//   bench frames (zoom and pan, settling): …
//       the same run's settling: a frame of a zoom or a pan moves and stretches the
//       drawing it has (ui::timeline), and the window it stops at is laid out and drawn
//       anew once it has held still for 150 ms. This is what that costs, from the timer to
//       after the render (window.leaselineSettles), for every window of a zoom from the
//       whole run in to a thousandth of it and out again, one + or - every 400 ms.
//
// The generated runs travel in the link (`#sc=`, the format of session::share: compact
// JSON, compressed by share::lz — here literals only, which that format allows — then
// base64url), so nothing but dist/ is needed.
//
// A measurement, not a test: slow frames do not fail it. It exits 1 only when the page
// reports an error (console error, page error, failed request) or cannot be driven.
// Not picked up by `node --test tests/e2e/` (its name matches no test-file pattern).

import { launchBrowser, openApp, quantile, requireDist, serveDist, stopServer, until, urlOf } from './lib.mjs';

const PLAY_MS = 8_000;

/** "N samples, p50 X ms, p95 Y ms" of the frame costs in `frames`. */
function summary(frames) {
  const sorted = frames.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  const fmt = (x) => (Number.isFinite(x) ? x.toFixed(2) : 'n/a');
  return `${sorted.length} samples, p50 ${fmt(quantile(sorted, 0.5))} ms, p95 ${fmt(quantile(sorted, 0.95))} ms`;
}

/**
 * Eight clients contending for the lock, each renewing every 40 ms and retrying every
 * 50–100 ms, with a pause every 20 s: the shape of benches/sim.rs's long run, stopped at
 * `maxEvents` trace entries.
 */
function bigScenario(maxEvents) {
  const job = [];
  for (let i = 0; i < 15; i++) {
    job.push({ op: 'acquire' }, { op: 'work', ms: 40_000 }, { op: 'write', key: `k${i % 3}`, value: `v${i}` }, { op: 'release' });
  }
  return {
    version: 1,
    name: `bench: eight clients, ${maxEvents} entries`,
    seed: 1,
    horizon_ms: 3_600_000,
    max_events: maxEvents,
    storage: { fence: 'monotone' },
    network: { default: { min_delay_ms: 1, max_delay_ms: 9, loss_pct: 1 } },
    clients: Array.from({ length: 8 }, (_, i) => ({
      start_ms: i * 37,
      ttl_ms: 120,
      renew_every_ms: 40,
      on_loss: 'reacquire',
      retry: { interval_ms: 50, jitter_ms: 50, max_attempts: 0 },
      job,
    })),
    faults: Array.from({ length: 50 }, (_, i) => ({
      at_ms: 5_000 + i * 20_000,
      fault: 'pause',
      node: `c${(i % 8) + 1}`,
      for_ms: 300,
    })),
  };
}

/** The `sc=` value of a scenario: its JSON as one stream of literal runs, base64url. */
function scValue(scenario) {
  const text = Buffer.from(JSON.stringify(scenario), 'utf8');
  const out = [];
  let n = text.length;
  while (n >= 0x80) {
    out.push(0x80 | (n & 0x7f));
    n >>>= 7;
  }
  out.push(n);
  for (let i = 0; i < text.length; i += 0x80) {
    const chunk = text.subarray(i, i + 0x80);
    out.push(chunk.length - 1, ...chunk);
  }
  return Buffer.from(out).toString('base64url');
}

/** Opens `hash` in a new page; returns it with its diagram and its problems. */
async function open(browser, server, hash) {
  const { context, page, problems } = await openApp(browser, `${urlOf(server)}${hash}`, {
    viewport: { width: 1280, height: 900 },
  });
  const diagram = page.locator('section.diagram:not(.versus)');
  await until(async () => Number(await diagram.getAttribute('data-entries')) > 0, 'the run to load', {
    timeout: 60_000,
  });
  return { context, page, problems, diagram };
}

const clientsOf = (page) => page.locator('svg.stage g[role=button][aria-label^="client "]').count();

/** Plays for PLAY_MS and pauses; returns the frame costs (throws if Space did not pause). */
async function play(page) {
  const toolbar = page.getByRole('toolbar', { name: 'Playback' });
  await page.evaluate(() => {
    window.leaselineFrames = [];
  });
  await toolbar.getByRole('button', { name: 'Play', exact: true }).click();
  await page.waitForTimeout(PLAY_MS);
  const pause = toolbar.getByRole('button', { name: 'Pause', exact: true });
  // Space on the focused Pause button pauses. If the run already ended on its own, Space
  // would start it again: press it only while playing.
  if (await pause.count()) await page.keyboard.press('Space');
  if (await pause.count()) throw new Error('Space did not pause playback');
  return page.evaluate(() => window.leaselineFrames ?? []);
}

function checked(problems, what) {
  if (problems.length) {
    throw new Error(`${what}: the page reported problems:\n  ${problems.join('\n  ')}`);
  }
}

/** Today's line: the eight-clients preset, played. */
async function presetPlayback(browser, server) {
  const { context, page, problems } = await openApp(browser, urlOf(server), {
    viewport: { width: 1280, height: 900 },
  });
  try {
    const diagram = page.getByRole('region', { name: 'Space-time diagram' });
    const before = await diagram.getAttribute('data-digest');
    await page.locator('select[aria-label="Scenario"]').selectOption('eight-clients');
    await until(
      async () => (await diagram.getAttribute('data-digest')) !== before,
      'the eight-clients run to load',
    );
    const clients = await clientsOf(page);
    const entries = Number(await diagram.getAttribute('data-entries'));
    const frames = await play(page);
    checked(problems, 'eight-clients');
    console.log(`bench frames: ${summary(frames)} (${clients} clients, ${entries} entries)`);
  } finally {
    await context.close();
  }
}

/** The same preset opened at its own link: the links' player plays it. */
async function playerPlayback(browser, server) {
  const { context, page, problems, diagram } = await open(browser, server, '#s=eight-clients');
  try {
    const builds = await page.evaluate(() =>
      performance.getEntriesByType('resource').map((e) => new URL(e.name).pathname).filter((p) => p.endsWith('.wasm')),
    );
    if (builds.join() !== '/leaseline-player_bg.wasm') throw new Error(`#s=eight-clients ran ${builds.join()}, not the links' player`);
    const clients = await clientsOf(page);
    const entries = Number(await diagram.getAttribute('data-entries'));
    const frames = await play(page);
    checked(problems, 'eight-clients in the links\' player');
    console.log(`bench frames (the links' player): ${summary(frames)} (${clients} clients, ${entries} entries)`);
  } finally {
    await context.close();
  }
}

/** A generated run of 20,000-odd entries, drawn whole, played. */
async function bigPlayback(browser, server) {
  const { context, page, problems, diagram } = await open(browser, server, `#sc=${scValue(bigScenario(24_000))}`);
  try {
    const clients = await clientsOf(page);
    const entries = Number(await diagram.getAttribute('data-entries'));
    const zoomed = /[#&]z=/.test(page.url());
    const frames = await play(page);
    checked(problems, 'the big run');
    console.log(
      `bench frames (playback, big run): ${summary(frames)} ` +
        `(${clients} clients, ${entries} entries, ${zoomed ? 'zoomed' : 'all'} in the visible window)`,
    );
  } finally {
    await context.close();
  }
}

/** A 100,000-entry run, zoomed and panned with the keys, a drag and the wheel. */
async function bigZoom(browser, server) {
  const { context, page, problems, diagram } = await open(browser, server, `#sc=${scValue(bigScenario(100_000))}`);
  try {
    const entries = Number(await diagram.getAttribute('data-entries'));
    const svg = page.locator('section.diagram:not(.versus) svg.timeline');
    const box = await svg.boundingBox();
    const y = box.y + box.height / 2;
    const x = box.x + box.width * 0.6;
    const settle = () => page.waitForTimeout(30);
    // The frames of each phase: zooming (+, -, Ctrl+wheel) and panning a close window.
    const zooming = [];
    const panning = [];
    const take = async (into) => {
      into.push(...(await page.evaluate(() => window.leaselineFrames ?? [])));
      await page.evaluate(() => {
        window.leaselineFrames = [];
      });
    };
    await take([]);
    await page.locator('body').focus();
    for (let round = 0; round < 3; round++) {
      // In, step by step, to a window of a thousandth of the run.
      for (let i = 0; i < 10; i++) {
        await page.keyboard.press('+');
        await settle();
      }
      await take(zooming);
      // Pan: drag left and right, then Shift+wheel.
      for (let i = 0; i < 4; i++) {
        await page.mouse.move(x, y);
        await page.mouse.down();
        await page.mouse.move(x - 120, y, { steps: 6 });
        await page.mouse.move(x + 60, y, { steps: 6 });
        await page.mouse.up();
        await settle();
      }
      await page.keyboard.down('Shift');
      for (let i = 0; i < 8; i++) {
        await page.mouse.wheel(0, i % 2 ? -200 : 300);
        await settle();
      }
      await page.keyboard.up('Shift');
      await take(panning);
      // Ctrl+wheel out and in around the pointer, then - back out to the whole run.
      await page.mouse.move(x, y);
      await page.keyboard.down('Control');
      for (let i = 0; i < 8; i++) {
        await page.mouse.wheel(0, i < 4 ? 250 : -250);
        await settle();
      }
      await page.keyboard.up('Control');
      for (let i = 0; i < 10; i++) {
        await page.keyboard.press('-');
        await settle();
      }
      await take(zooming);
    }
    // Each window laid out: in and out again, holding still after each step.
    await page.evaluate(() => {
      window.leaselineSettles = [];
    });
    for (const key of [...Array(10).fill('+'), ...Array(10).fill('-')]) {
      await page.keyboard.press(key);
      await page.waitForTimeout(400);
    }
    const settles = await page.evaluate(() => window.leaselineSettles ?? []);
    checked(problems, 'the 100,000-entry run');
    console.log(
      `bench frames (zoom and pan, ${entries} entries): ${summary([...zooming, ...panning])}; ` +
        `zooming ${summary(zooming)}; panning a close window ${summary(panning)}`,
    );
    console.log(`bench frames (zoom and pan, settling): ${summary(settles)}`);
  } finally {
    await context.close();
  }
}

async function main() {
  await requireDist();
  const server = await serveDist();
  let browser;
  try {
    browser = await launchBrowser();
    await presetPlayback(browser, server);
    await playerPlayback(browser, server);
    await bigPlayback(browser, server);
    await bigZoom(browser, server);
    return 0;
  } finally {
    await browser?.close();
    await stopServer(server);
  }
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(`bench frames: ${err.stack ?? err}`);
    process.exit(1);
  },
);

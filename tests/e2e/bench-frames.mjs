// Frame-cost benchmark (part of `make test`, after the end-to-end tests): plays the
// "eight-clients" preset in the built app (dist/) in headless Chromium for about 8 s and
// prints one line with the per-frame cost the app records in `window.leaselineFrames`
// (ms from the animation-frame tick to after the render):
//
//   bench frames: N samples, p50 X ms, p95 Y ms (8 clients, E entries)
//
// A measurement, not a test: slow frames do not fail it. It exits 1 only when the page
// reports an error (console error, page error, failed request) or cannot be driven.
// Not picked up by `node --test tests/e2e/` (its name matches no test-file pattern).

import {
  launchBrowser,
  openApp,
  requireDist,
  serveDist,
  stopServer,
  until,
  urlOf,
} from './lib.mjs';

const PLAY_MS = 8_000;

/** The q-quantile of sorted numbers (nearest rank). */
function quantile(sorted, q) {
  if (sorted.length === 0) return NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[i];
}

async function main() {
  await requireDist();
  const server = await serveDist();
  let browser;
  try {
    browser = await launchBrowser();
    const { page, problems } = await openApp(browser, urlOf(server), {
      viewport: { width: 1280, height: 900 },
    });
    const diagram = page.getByRole('region', { name: 'Space-time diagram' });
    const before = await diagram.getAttribute('data-digest');
    await page.locator('select[aria-label="Scenario"]').selectOption('eight-clients');
    await until(
      async () => (await diagram.getAttribute('data-digest')) !== before,
      'the eight-clients run to load',
    );
    const clients = await page
      .locator('svg.stage g[role=button][aria-label^="client "]')
      .count();
    const entries = Number(await diagram.getAttribute('data-entries'));

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
    const stillPlaying = await pause.count();
    const frames = await page.evaluate(() => window.leaselineFrames ?? []);

    if (problems.length) {
      console.error(`bench frames: the page reported problems:\n  ${problems.join('\n  ')}`);
      return 1;
    }
    if (stillPlaying) {
      console.error('bench frames: Space did not pause playback');
      return 1;
    }
    const sorted = frames.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
    const fmt = (x) => (Number.isFinite(x) ? x.toFixed(2) : 'n/a');
    console.log(
      `bench frames: ${sorted.length} samples, p50 ${fmt(quantile(sorted, 0.5))} ms, ` +
        `p95 ${fmt(quantile(sorted, 0.95))} ms (${clients} clients, ${entries} entries)`,
    );
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

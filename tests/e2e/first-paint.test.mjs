// End-to-end: the first paint (issue #14, point 1). index.html carries the default run,
// drawn at build time by the core, so the diagram is on screen before the wasm arrives —
// here, with the wasm never arriving at all. A link to anything else (an embed of another
// scenario) keeps that picture hidden from the first paint on, so the default run is never
// shown in its place; once the app mounts, the picture is gone and the app's diagram is
// the only one.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { SHOTS, harness, openApp } from './lib.mjs';

/** A page whose wasm never loads: what a reader sees while it is on its way. */
async function withoutWasm(h, fragment) {
  const context = await h.browser.newContext({ viewport: { width: 1280, height: 800 } });
  await context.route(/\.wasm$/, (route) => route.abort());
  const page = await context.newPage();
  await page.goto(`${h.url}${fragment}`, { waitUntil: 'load' });
  return { context, page };
}

const picture = (page) =>
  page.evaluate(() => {
    const fp = document.getElementById('first-paint');
    return {
      present: !!fp,
      visible: !!fp && fp.querySelector('svg.timeline').checkVisibility({ visibilityProperty: true }),
      lanes: fp ? fp.querySelectorAll('.lane line').length : 0,
      digest: fp?.querySelector('[data-digest]')?.getAttribute('data-digest'),
    };
  });

describe('the first paint', () => {
  const h = harness();

  test('the default page shows the whole default run before (and without) the wasm', async () => {
    const { context, page } = await withoutWasm(h, '');
    try {
      const p = await picture(page);
      assert.ok(p.visible, 'the picture is shown');
      assert.equal(p.lanes, 4);
      assert.equal(p.digest, 'f4c02eac5344b581', "the default run's digest (gc-pause)");
      await page.screenshot({ path: join(SHOTS, 'first-paint.png') });
    } finally {
      await context.close();
    }
  });

  test('a link to another scenario never shows the default run, even before the app', async () => {
    for (const fragment of ['#s=check-then-write&embed=1', '#quiz=2', '#s=gc-pause-fenced']) {
      const { context, page } = await withoutWasm(h, fragment);
      try {
        const p = await picture(page);
        assert.ok(p.present && !p.visible, `${fragment}: the default run stays hidden`);
      } finally {
        await context.close();
      }
    }
  });

  test('once the app mounts the picture is gone, and the app draws the run the link names', async () => {
    const { context, page, problems } = await openApp(h.browser, `${h.url}#s=check-then-write&embed=1`, undefined, undefined, {
      ready: 'section.diagram',
    });
    try {
      assert.equal((await picture(page)).present, false);
      assert.equal(await page.locator('.diagram svg.timeline').count(), 1);
      assert.equal(await page.locator('section.diagram').getAttribute('data-digest'), '1202bdd6b1d00a95');
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  });
});

// End-to-end: believed vs actual. In the whole app, gc-pause's client 1
// lane marks where the client believes its lease ends (a dashed tick), where the lock
// service let it expire (a solid tick) and the alarm's tint from there to where it stopped
// believing. The first load's default page marks the same gaps: a reader who never opens
// more still sees the danger.
// Screenshot: target/e2e/belief-gc-pause.png.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { SHOTS, harness, openApp, until } from './lib.mjs';

const LAPTOP = { viewport: { width: 1280, height: 800 } };

/** The gaps of the main diagram: their class, ticks' x, lane y and hover title. */
const gaps = (page) =>
  page.evaluate(() =>
    [...document.querySelectorAll('section.diagram:not(.versus) svg.timeline .gap')].map((g) => ({
      cls: g.getAttribute('class'),
      believed: Number(g.querySelector('line.believed').getAttribute('x1')),
      expired: Number(g.querySelector('line.expired').getAttribute('x1')),
      y: Number(g.querySelector('line.believed').getAttribute('y1')) + 16,
      tint: [...g.querySelectorAll('rect')].map((r) => r.getAttribute('class') || ''),
      title: g.querySelector('title')?.textContent ?? '',
    })),
  );

describe('believed vs actual', () => {
  const h = harness();

  test('gc-pause: client 1 believes past its expiry, marked before client 2 is granted', async () => {
    const { context, page, problems } = await openApp(h.browser, `${h.url}#s=gc-pause&t=60000`, LAPTOP);
    try {
      const got = await until(async () => {
        const g = await gaps(page);
        return g.length ? g : null;
      }, 'the believed-vs-actual marks');
      const c1 = got.filter((g) => g.title.startsWith("client 1's clock"));
      assert.equal(c1.length, 1, JSON.stringify(got));
      const [g] = c1;
      assert.match(g.cls, /\bdanger\b/);
      assert.ok(g.tint.includes('overrun'), JSON.stringify(g));
      assert.match(g.title, /went on believing until 50\.0\d+s/);
      // The solid tick is the expiry's marker on the lock service's lane (same x).
      const expireX = await page.evaluate(() =>
        [...document.querySelectorAll('section.diagram:not(.versus) .mark.expire circle')].map((c) => Number(c.getAttribute('cx'))),
      );
      assert.ok(expireX.some((x) => Math.abs(x - g.expired) < 0.2), `${expireX} vs ${g.expired}`);
      const diagram = page.locator('section.diagram:not(.versus)');
      await diagram.scrollIntoViewIfNeeded();
      await page.screenshot({ path: join(SHOTS, 'belief-gc-pause.png') });
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  });

  test('the first load marks the same gaps as the whole app', async () => {
    // The whole app's gaps on the default run, from a link that loads it.
    const whole = await openApp(h.browser, `${h.url}#s=gc-pause`, LAPTOP);
    let want;
    try {
      want = await until(async () => {
        const g = await gaps(whole.page);
        return g.length ? g : null;
      }, "the whole app's gaps");
      assert.deepEqual(whole.problems, []);
    } finally {
      await whole.context.close();
    }
    // The first load: the default page, no link.
    const { context, page, problems } = await openApp(h.browser, h.url, LAPTOP);
    try {
      const got = await until(async () => {
        const g = await gaps(page);
        return g.length ? g : null;
      }, "the first load's gaps");
      // The same shapes; hover texts aside, which the first load leaves out in play (the
      // whole app's tell what has begun by the cursor).
      const shape = ({ title, ...rest }) => rest;
      assert.deepEqual(got.map(shape), want.map(shape));
      // Drawn by the first load itself: the whole app was never fetched.
      const fetched = await page.evaluate(() => performance.getEntriesByType('resource').map((r) => r.name));
      assert.ok(fetched.some((n) => /leaseline-lite-[^/]*_bg\.wasm$/.test(n)), fetched.join(' '));
      assert.ok(!fetched.some((n) => /\/leaseline_bg\.wasm$/.test(n)), fetched.join(' '));
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  });
});

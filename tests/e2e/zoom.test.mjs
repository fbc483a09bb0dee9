// End-to-end: zoom and pan on the diagram's time axis. The keyboard (+ - 0),
// Ctrl+wheel and a two-finger pinch zoom; a drag pans; the window is in the link and a link
// restores it; Fit (and 0) show the whole run again; the axis re-spaces its ticks for the
// window; on the default page a zoom brings the whole app, which opens at that window.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { SHOTS, harness, openApp, playback, until, WAIT } from './lib.mjs';

const LAPTOP = { viewport: { width: 1280, height: 800 } };
const windowOf = (page) => {
  const m = /[#&]z=(\d+)-(\d+)/.exec(page.url());
  return m ? [Number(m[1]), Number(m[2])] : null;
};
const ticks = (page) =>
  page.locator('section.diagram:not(.versus) svg.timeline .axis text').allTextContents();
const status = (page) => page.locator('.zoom-window').first().textContent();

describe('zoom and pan', () => {
  const h = harness();

  test('keys, the link, Fit, and the axis for the window', async () => {
    const { context, page, problems } = await openApp(h.browser, `${h.url}#s=gc-pause&z=20000-40000`, LAPTOP);
    try {
      await until(async () => (await status(page)) === '20.0 – 40.0 s of 60.0 s', 'the link opens at its window');
      const t = await ticks(page);
      assert.equal(t[0], '20 s', `the axis starts at the window: ${t}`);
      assert.ok(t.includes('30 s') && !t.includes('50 s'), `${t}`);
      await page.locator('body').focus();
      await page.keyboard.press('+');
      await until(async () => {
        const w = windowOf(page);
        return w && w[1] - w[0] === 10_000;
      }, '+ halves the window');
      const finer = await ticks(page);
      assert.ok(finer.length >= 4 && finer.some((x) => /\.\d s$/.test(x) || /ms$/.test(x) || x !== '0'), `${finer}`);
      await page.keyboard.press('-');
      await until(async () => windowOf(page)?.[1] - windowOf(page)?.[0] === 20_000, '- doubles it');
      await page.getByRole('button', { name: 'Fit the whole run' }).click();
      await until(async () => windowOf(page) === null, 'Fit drops z from the link');
      assert.equal(await status(page), 'Whole run');
      await page.keyboard.press('+');
      await until(async () => windowOf(page) !== null, '+ again');
      await page.keyboard.press('0');
      await until(async () => windowOf(page) === null, '0 fits');
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  });

  test('Ctrl+wheel zooms around the pointer, a drag pans without moving the cursor', async () => {
    const { context, page, problems } = await openApp(h.browser, `${h.url}#s=gc-pause&t=5000`, LAPTOP);
    try {
      const svg = page.locator('section.diagram:not(.versus) svg.timeline');
      const box = await svg.boundingBox();
      const y = box.y + box.height / 2;
      // The pointer a quarter of the way along the drawing's time axis.
      const x = box.x + box.width * 0.5;
      await page.mouse.move(x, y);
      await page.keyboard.down('Control');
      await page.mouse.wheel(0, -300);
      await page.keyboard.up('Control');
      const w = await until(async () => windowOf(page), 'Ctrl+wheel zoomed');
      assert.ok(w[1] - w[0] < 60_000, `${w}`);
      const before = await playback(page).slider.inputValue();
      await page.mouse.move(x, y);
      await page.mouse.down();
      await page.mouse.move(x - 150, y, { steps: 5 });
      await page.mouse.up();
      const panned = await until(async () => {
        const v = windowOf(page);
        return v && v[0] > w[0] && v;
      }, 'the drag moved the window later');
      assert.equal(panned[1] - panned[0], w[1] - w[0], 'a pan keeps the width');
      assert.equal(await playback(page).slider.inputValue(), before, 'the drag did not move the cursor');
      await page.screenshot({ path: join(SHOTS, 'zoom.png') });
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  });

  test('a two-finger pinch zooms (touch emulation)', async () => {
    const { context, page, problems } = await openApp(h.browser, `${h.url}#s=gc-pause`, {
      viewport: { width: 900, height: 800 },
      hasTouch: true,
    });
    try {
      const box = await page.locator('section.diagram:not(.versus) svg.timeline').boundingBox();
      const cdp = await context.newCDPSession(page);
      const y = box.y + box.height / 2;
      const mid = box.x + box.width * 0.6;
      const touch = (type, d) =>
        cdp.send('Input.dispatchTouchEvent', {
          type,
          touchPoints: type === 'touchEnd' ? [] : [
            { x: mid - d, y, id: 1 },
            { x: mid + d, y, id: 2 },
          ],
        });
      await touch('touchStart', 20);
      for (const d of [40, 60, 80, 100, 120]) await touch('touchMove', d);
      await touch('touchEnd', 0);
      const w = await until(async () => windowOf(page), 'the pinch zoomed in');
      assert.ok(w[1] - w[0] < 45_000, `${w}`);
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  });

  test('on the default page, + brings the whole app at the zoomed window', async () => {
    const { context, page, problems } = await openApp(h.browser, h.url, LAPTOP);
    try {
      await page.locator('#first-paint').waitFor({ state: 'detached', timeout: WAIT });
      await page.locator('body').focus();
      await page.keyboard.press('+');
      const w = await until(async () => windowOf(page), 'the whole app opened zoomed');
      // Half the run (it ends a few ms after 60 s).
      assert.ok(Math.abs(w[1] - w[0] - 30_000) <= 5, `${w}`);
      await page.getByRole('button', { name: 'Fit the whole run' }).waitFor();
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  });

  test('on the default page, Ctrl+wheel brings the whole app zoomed around the pointer', async () => {
    const { context, page, problems } = await openApp(h.browser, h.url, LAPTOP);
    try {
      await page.locator('#first-paint').waitFor({ state: 'detached', timeout: WAIT });
      const box = await page.locator('section.diagram svg.timeline').boundingBox();
      // The pointer three quarters of the way along: the window must lie late in the run.
      await page.mouse.move(box.x + box.width * 0.75, box.y + box.height / 2);
      await page.keyboard.down('Control');
      await page.mouse.wheel(0, -300);
      await page.keyboard.up('Control');
      const w = await until(async () => windowOf(page), 'the whole app opened zoomed');
      assert.ok(w[1] - w[0] < 60_000 && w[0] > 10_000, `${w}`);
      // The page itself was not zoomed by the browser.
      assert.equal(await page.evaluate(() => window.visualViewport.scale), 1);
      await page.getByRole('button', { name: 'Fit the whole run' }).waitFor();
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  });
});

// End-to-end: the panels as a reader uses them. Which panels are open is the page's state
// (the session's), not only the <details>'s: a panel opened stays open while the run plays
// and the page redraws, closes when its summary is clicked again, several can be open at
// once, and Escape closes the legend with the focus back on its summary. Opening a tool on
// the first load hands over to the whole app, which opens that panel and moves the focus
// to it. Screenshots go to target/e2e/.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { SHOTS, WAIT, harness, openApp } from './lib.mjs';

const isOpen = (page, selector) => page.evaluate((s) => document.querySelector(s)?.open, selector);

describe('the panels', () => {
  const h = harness();

  test('open and close as the reader asks, and stay so while the run plays', async () => {
    const { context, page, problems } = await openApp(h.browser, h.url, {
      viewport: { width: 1280, height: 800 },
    });
    try {
      // The first load: opening the editor loads the whole app, which opens it and puts
      // the focus on its summary.
      await page.click('details.panel.editor summary');
      await page.waitForFunction(
        () => document.querySelector('details.panel.editor')?.open
          && document.activeElement?.closest('details.panel.editor'),
        null,
        { timeout: WAIT },
      );
      await page.waitForSelector('details.panel.editor button', { timeout: WAIT });
      await page.screenshot({ path: join(SHOTS, 'panels-editor-handed-over.png') });

      // Closed by its summary, it stays closed while the run plays (every frame redraws).
      await page.click('details.panel.editor summary');
      await page.getByRole('toolbar', { name: 'Playback' }).getByRole('button', { name: 'Play', exact: true }).click();
      await page.waitForTimeout(500);
      assert.equal(await isOpen(page, 'details.panel.editor'), false, 'the editor stays closed');

      // Two at once, and they stay open while it plays.
      await page.click('details.panel.settings summary');
      await page.click('details.panel.calculator summary');
      await page.waitForTimeout(500);
      assert.equal(await isOpen(page, 'details.panel.settings'), true, 'settings open');
      assert.equal(await isOpen(page, 'details.panel.calculator'), true, 'calculator open');
      assert.equal(await isOpen(page, 'details.panel.explore'), false, 'explore still closed');
      await page.keyboard.press('Space');

      // The legend: open by its summary, closed by Escape with the focus back on it.
      await page.click('details.legend summary');
      await page.waitForFunction(() => document.querySelector('details.legend')?.open, null, { timeout: WAIT });
      await page.screenshot({ path: join(SHOTS, 'panels-legend.png') });
      await page.keyboard.press('Escape');
      await page.waitForFunction(() => !document.querySelector('details.legend')?.open, null, { timeout: WAIT });
      assert.ok(
        await page.evaluate(() => document.activeElement?.matches('details.legend > summary')),
        'the focus is back on the legend summary',
      );
      // Still closed after the page redraws (a step forward).
      await page.getByRole('toolbar', { name: 'Playback' }).getByRole('button', { name: 'Step forward', exact: true }).click();
      await page.waitForTimeout(300);
      assert.equal(await isOpen(page, 'details.legend'), false, 'the legend stays closed');
      assert.equal(await isOpen(page, 'details.panel.settings'), true, 'settings still open');
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  });

  // On a phone every open panel keeps its fields inside its box: the settings' clocks table
  // (three columns of fixed-width fields) once ran 8 px past a 360 px panel and, at 320
  // px, widened the page.
  for (const width of [320, 360]) {
    test(`every panel's fields stay inside it on a ${width} px phone`, async () => {
      const { context, page, problems } = await openApp(h.browser, `${h.url}#s=check-then-write`, {
        viewport: { width, height: 740 },
      });
      try {
        for (const name of ['settings', 'editor', 'explore', 'calculator', 'io']) {
          await page.click(`details.panel.${name} > summary`);
          await page.waitForSelector(`details.panel.${name}[open] > :not(summary)`, { timeout: WAIT });
        }
        await page.waitForTimeout(300);
        const past = await page.evaluate(() =>
          [...document.querySelectorAll('details.panel[open]')].flatMap((panel) => {
            const edge = panel.getBoundingClientRect();
            return [...panel.querySelectorAll('*')]
              .filter((e) => e.checkVisibility() && e.getBoundingClientRect().width > 0)
              .filter((e) => e.getBoundingClientRect().right > edge.right + 0.5 || e.getBoundingClientRect().left < edge.left - 0.5)
              .map((e) => `${panel.className}: ${e.tagName.toLowerCase()}.${e.className} ${Math.round(e.getBoundingClientRect().left)}..${Math.round(e.getBoundingClientRect().right)} (panel ${Math.round(edge.left)}..${Math.round(edge.right)})`);
          }));
        const wide = await page.evaluate(() => document.documentElement.scrollWidth);
        await page.locator('details.panel.settings table').scrollIntoViewIfNeeded();
        await page.screenshot({ path: join(SHOTS, `panels-settings-${width}.png`) });
        assert.deepEqual(past.slice(0, 8), [], 'a field runs past its panel');
        assert.ok(wide <= width, `the page is ${wide} px wide in a ${width} px window`);
        assert.deepEqual(problems, []);
      } finally {
        await context.close();
      }
    });
  }
});

// End-to-end: a zoom that costs a frame nothing new, and what the keyboard may
// reach of a diagram the cursor has not yet revealed. A zoom or a pan shows at once by
// moving and stretching the drawing it has (the axis already the new window's), and the
// window is laid out anew once it holds still — in a scenario chosen later too. A count
// of folded labels ("+3") is a button, but only once the cursor has passed it: before, it
// is out of the tab order and hidden from a screen reader, so Tab cannot read what the run
// has not yet shown. Screenshots go to target/e2e/.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { SHOTS, harness, openApp, until } from './lib.mjs';

const LAPTOP = { viewport: { width: 1280, height: 800 } };

/** The folds on the diagram: how many, how many Tab reaches, how many are hidden. */
const folds = (page) =>
  page.evaluate(() => {
    const all = [...document.querySelectorAll('section.diagram:not(.versus) svg.timeline g.fold')];
    return {
      all: all.length,
      tabbable: all.filter((f) => f.getAttribute('tabindex') === '0').length,
      hidden: all.filter((f) => f.getAttribute('aria-hidden') === 'true').length,
    };
  });

describe('zoom stand-in, folds and the reveal', () => {
  const h = harness();

  test('a zoom shows the drawing it has, stretched, then lays out the window once it holds still', async () => {
    // A link with a time opens the whole app at once, whose zoom this is (a plain link's
    // player hands the first zoom over to it).
    const { context, page, problems } = await openApp(h.browser, `${h.url}#s=gc-pause&t=0`, LAPTOP);
    try {
      // A scenario chosen after the page opened: its zooms settle the same way.
      const diagram = page.getByRole('region', { name: 'Space-time diagram' });
      const before = await diagram.getAttribute('data-digest');
      await page.locator('select[aria-label="Scenario"]').selectOption('eight-clients');
      await until(async () => (await diagram.getAttribute('data-digest')) !== before, 'eight-clients loaded');
      const stretched = () =>
        page.evaluate(() => {
          const g = document.querySelector('section.diagram:not(.versus) svg.timeline g[transform]');
          return g ? g.getAttribute('transform') : null;
        });
      const firstTick = () =>
        page.locator('section.diagram:not(.versus) svg.timeline .axis text').first().textContent();
      assert.equal(await stretched(), null, 'nothing stretched before a zoom');
      await page.locator('body').focus();
      // Two steps in at once: the drawing stands in, twice as wide twice over.
      await page.keyboard.press('+');
      await page.keyboard.press('+');
      const m = await until(async () => await stretched(), 'the drawing stretched onto the new window', { every: 10 });
      const [a, , , d] = m.replace(/^matrix\(|\)$/g, '').split(' ').map(Number);
      assert.ok(Math.abs(a - 4) < 0.01 && d === 1, `stretched 4 times across only: ${m}`);
      await page.screenshot({ path: join(SHOTS, 'zoom-stand-in.png') });
      // Held still, the window is laid out anew: no transform, the axis as it was set.
      const axis = await firstTick();
      await until(async () => (await stretched()) === null, 'the window laid out anew');
      assert.equal(await firstTick(), axis);
      await page.screenshot({ path: join(SHOTS, 'zoom-settled.png') });
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  });

  test('a fold the cursor has not reached is out of the tab order until it is revealed', async () => {
    const { context, page, problems } = await openApp(h.browser, `${h.url}#s=eight-clients`, LAPTOP);
    try {
      await page.locator('body').focus();
      await page.keyboard.press('Home');
      const start = await until(async () => {
        const f = await folds(page);
        return f.all > 0 && f;
      }, 'folds on the diagram');
      assert.equal(start.tabbable, 0, `at the start no fold is in the tab order: ${JSON.stringify(start)}`);
      assert.equal(start.hidden, start.all, 'and every one is hidden from a screen reader');
      // Tab through the whole page: focus never lands on a fold.
      await page.locator('body').focus();
      for (let i = 0; i < 80; i++) {
        await page.keyboard.press('Tab');
        const onFold = await page.evaluate(() => Boolean(document.activeElement?.closest?.('g.fold')));
        assert.ok(!onFold, `Tab ${i + 1} reached a fold the cursor has not revealed`);
      }
      // At the end of the run every fold is revealed: each a button in the tab order.
      await page.locator('body').focus();
      await page.keyboard.press('End');
      const end = await until(async () => {
        const f = await folds(page);
        return f.tabbable === f.all && f.hidden === 0 && f;
      }, 'every fold revealed at the end');
      assert.ok(end.all > 0);
      await page.locator('section.diagram:not(.versus) svg.timeline g.fold[tabindex="0"]').first().focus();
      await page.screenshot({ path: join(SHOTS, 'zoom-folds-revealed.png') });
      // Back to the start: out again.
      await page.locator('body').focus();
      await page.keyboard.press('Home');
      await until(async () => (await folds(page)).tabbable === 0, 'the folds out of the tab order again');
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  });
});

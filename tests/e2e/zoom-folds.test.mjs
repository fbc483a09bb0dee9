// End-to-end: issue #17, what the keyboard may reach of a diagram the cursor has not yet
// revealed. A count of folded labels ("+3") is a button, but only once the cursor has
// passed it: before, it is out of the tab order and hidden from a screen reader, so Tab
// cannot read what the run has not yet shown. The screenshot goes to target/e2e/.

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

describe('folds and the reveal', () => {
  const h = harness();

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

// End-to-end: a learner's progress, kept in localStorage, survives every page. The first
// load carries the default page's lesson alone; opening it must not drop the walkthroughs
// followed and the questions answered elsewhere, and finishing its own walkthrough there
// adds to them.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { WAIT, harness, openApp, until } from './lib.mjs';

const KEY = 'leaseline.progress';
// Two lessons walked and three stops answered in the whole app, as it stores them.
const SAVED = '1|w:check-then-write,slow-client-clock|q:0.0.1,1.0.0,3.1.1';

describe('progress', () => {
  const h = harness();

  test('the first load keeps what the whole app stored, and adds to it', async () => {
    const { context, page, problems } = await openApp(
      h.browser,
      h.url,
      { viewport: { width: 1280, height: 800 } },
      (ctx) => ctx.addInitScript(([k, v]) => {
        if (!sessionStorage.getItem('seeded')) {
          localStorage.setItem(k, v);
          sessionStorage.setItem('seeded', '1');
        }
      }, [KEY, SAVED]),
    );
    try {
      // The default page is the first load's: nothing of the whole app was asked for.
      assert.ok(
        await page.evaluate(() => !performance.getEntriesByType('resource')
          .some((r) => /\/leaseline-[0-9a-f]+_bg\.wasm$/.test(r.name))),
        'the default page plays on the first load',
      );
      await page.waitForTimeout(500);
      const stored = await page.evaluate((k) => localStorage.getItem(k), KEY);
      assert.equal(stored, SAVED, 'opening the page changed nothing stored');

      // Walk the default page's walkthrough to its last beat.
      const walk = page.getByRole('region', { name: 'Walkthrough' });
      const next = walk.getByRole('button', { name: 'Next', exact: true });
      for (let k = 1; k <= 7; k++) await next.click();
      await until(async () => {
        const s = await page.evaluate((k) => localStorage.getItem(k), KEY);
        return s && s.includes('gc-pause');
      }, 'the walkthrough recorded as followed', { timeout: WAIT });
      const after = await page.evaluate((k) => localStorage.getItem(k), KEY);
      assert.equal(
        after,
        '1|w:check-then-write,gc-pause,slow-client-clock|q:0.0.1,1.0.0,3.1.1',
        'the default lesson added, nothing else lost',
      );
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  });
});

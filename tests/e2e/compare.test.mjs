// End-to-end: two runs side by side on the same seed — fenced against unfenced by default,
// or a lesson against one of its fixes — under one cursor, with the first event where they
// part and each side's verdict. A screenshot of the compare view goes to target/e2e/.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { SHOTS, harness, openApp, playback, until } from './lib.mjs';

const LAPTOP = { viewport: { width: 1280, height: 900 } };

describe('compare', () => {
  const h = harness();

  test('fenced and unfenced side by side: one cursor, the first difference, both verdicts', async () => {
    const { context, page, problems } = await openApp(h.browser, h.url, LAPTOP);
    try {
      await page.getByRole('button', { name: 'Compare', exact: true }).click();
      const bar = page.getByRole('region', { name: 'Compare' });
      await bar.waitFor();
      const a = page.getByRole('region', { name: 'Space-time diagram', exact: true });
      const b = page.getByRole('region', { name: 'Space-time diagram B' });
      assert.notEqual(await a.getAttribute('data-digest'), await b.getAttribute('data-digest'));
      const text = await bar.innerText();
      assert.match(text, /First difference at t = 50\.0\d\ds: A — storage: write accepted; B — storage: write rejected/);
      assert.match(text, /A: .*fence: none\) — unsafe/);
      assert.match(text, /B: .*fence: monotone\) — safe — the fence refused 1 write/);
      await bar.getByRole('button', { name: 'Jump there' }).click();
      const { slider } = playback(page);
      await until(async () => Number(await slider.inputValue()) >= 50_000, 'the cursor at the difference');
      // One cursor: both drawings show it at the same place.
      const x = (loc) => loc.locator('line.cursor').getAttribute('x1');
      assert.equal(await x(a), await x(b));
      assert.match(page.url(), /panel=compare/);
      await page.screenshot({ path: join(SHOTS, 'compare.png'), fullPage: true });
      // A lesson against its fix, chosen from the list.
      await page.goto(`${h.url}#s=partition-duplicate-effects&panel=compare`);
      await bar.waitFor();
      await bar.getByRole('combobox', { name: 'Compare with' }).selectOption('partition-duplicate-effects/stop-on-loss');
      await until(async () => /B: .*safe/.test(await bar.innerText()), 'the fix on the B side');
      assert.match(await bar.innerText(), /A: .*unsafe/);
      await bar.getByRole('button', { name: 'Stop comparing' }).click();
      assert.equal(await b.count(), 0);
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  });
});

// End-to-end: the safety calculator (issue #16) — on the default page it computes from
// the scenario's own client and bounds, says which field is wrong when one is (never a
// panic), and "Show me the worst case" opens a run whose two-believers time equals the
// figure it stated. No console error.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { SHOTS, harness, openApp, until } from './lib.mjs';

const LAPTOP = { viewport: { width: 1280, height: 900 } };

describe('the safety calculator', () => {
  const h = harness();

  test('computes for the default page, names a bad field, and opens the run that attains the bound', async () => {
    const { context, page, problems } = await openApp(h.browser, h.url, LAPTOP);
    try {
      await page.locator('details.panel.calculator > summary').click();
      const panel = page.locator('details.panel.calculator[open]');
      const verdict = panel.locator('p.calc-verdict');
      await verdict.waitFor({ timeout: 20_000 });
      assert.match(await verdict.innerText(), /^Unsafe by [\d.]+ s/);
      const stated = Number(await verdict.getAttribute('data-overlap-ms'));
      assert.ok(stated > 0, `a positive overlap: ${stated}`);
      assert.match(await panel.locator('.calc-formula').innerText(), /\S/);
      await panel.scrollIntoViewIfNeeded();
      await page.screenshot({ path: join(SHOTS, 'calculator.png') });

      // A bad value: the message is at the field, and nothing is computed from it.
      const margin = panel.getByLabel('Safety margin (ms)');
      await margin.fill('40000');
      await panel.getByText('the margin must be shorter than the TTL').waitFor();
      assert.equal(await margin.getAttribute('aria-invalid'), 'true');
      assert.equal(await verdict.count(), 0);
      await margin.fill('0');
      await verdict.waitFor();

      // The worst case, as an ordinary run: its overlap is the stated figure.
      await panel.getByRole('button', { name: 'Show me the worst case' }).click();
      await until(
        async () => Number(await page.locator('section.diagram').first().getAttribute('data-overlap-ms')) === stated,
        `a run whose two clients both believe for ${stated} ms`,
      );
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  });
});

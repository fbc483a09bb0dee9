// End-to-end: the safety calculator — on the default page it computes from
// the scenario's own client and bounds, says which field is wrong when one is (never a
// panic), and "Show me the worst case" opens a run whose two-believers time equals the
// figure it stated; its sliders move their fields, and the lock service can be switched.
// It says what its figure leaves out of a job that writes again, and asks about the last
// write in one press; an effect no fence can refuse reads unsafe with any fence. No
// console error.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { SHOTS, harness, openApp, until, WAIT } from './lib.mjs';

const LAPTOP = { viewport: { width: 1280, height: 900 } };

describe('the safety calculator', () => {
  const h = harness();

  test('computes for the default page, names a bad field, and opens the run that attains the bound', async () => {
    const { context, page, problems } = await openApp(h.browser, h.url, LAPTOP);
    try {
      await page.locator('details.panel.calculator > summary').click();
      const panel = page.locator('details.panel.calculator[open]');
      const verdict = panel.locator('p.calc-verdict');
      await verdict.waitFor({ timeout: WAIT });
      assert.match(await verdict.innerText(), /^Unsafe: overlap up to [\d.]+ s/);
      const stated = Number(await verdict.getAttribute('data-overlap-ms'));
      assert.ok(stated > 0, `a positive overlap: ${stated}`);
      assert.match(await panel.locator('.calc-formula').innerText(), /\S/);
      await panel.scrollIntoViewIfNeeded();
      await page.screenshot({ path: join(SHOTS, 'calculator.png') });

      // A bad value: the message is at the field, and nothing is computed from it.
      const margin = panel.getByLabel('Safety margin (ms)', { exact: true });
      await margin.fill('40000');
      await panel.getByText('Safety margin: must be shorter than the TTL').waitFor();
      assert.equal(await margin.getAttribute('aria-invalid'), 'true');
      assert.equal(await verdict.count(), 0);
      await margin.fill('0');
      await verdict.waitFor();

      // A slider moves its field, and the answer follows.
      // (The default page's client never checks its lease, so its TTL counts, not a margin.)
      const ttl = panel.getByLabel('TTL (ms)', { exact: true });
      const slider = panel.getByRole('slider', { name: 'TTL (ms), slider' });
      const was = await ttl.inputValue();
      await slider.fill(String(Number(was) - 5000));
      assert.equal(await ttl.inputValue(), String(Number(was) - 5000));
      await until(async () => Number(await verdict.getAttribute('data-overlap-ms')) === stated + 5000, 'a lease 5 s shorter: 5 s more overlap');
      await slider.fill(was);
      await until(async () => Number(await verdict.getAttribute('data-overlap-ms')) === stated, 'back to the stated figure');

      // "Pauses have no bound" sits with the pause it lifts (on a laptop the fields are three
      // across, and it once fell into the next row's first cell, under another field), the
      // fields' inputs still in line; ticked, the pause is off and the overlap unbounded.
      const pause = panel.getByLabel('Longest pause P (ms)', { exact: true });
      const unbounded = panel.getByRole('checkbox', { name: 'Pauses have no bound' });
      const [p, u, w] = await Promise.all([pause.boundingBox(), unbounded.boundingBox(), panel.getByLabel(/^Work before the write/).first().boundingBox()]);
      assert.ok(u.x >= p.x - 1 && u.x < p.x + p.width && u.y < p.y && p.y - u.y < 60, `the checkbox ${JSON.stringify(u)} over the pause's field ${JSON.stringify(p)}`);
      assert.ok(Math.abs(w.y - p.y) < 2, `the pause's input in line with its neighbour's: ${p.y} vs ${w.y}`);
      await unbounded.check();
      await until(async () => (await pause.isDisabled()) && /unbounded/i.test(await panel.innerText()), 'the pause off and the overlap unbounded');
      await unbounded.uncheck();
      await until(async () => Number(await verdict.getAttribute('data-overlap-ms')) === stated, 'bounded again');

      // Another lock service: the same question of Redlock, and back.
      const service = panel.getByLabel('Lock service', { exact: true });
      await service.selectOption('redlock');
      await until(async () => /\(redlock\)/.test(await panel.innerText()), 'the redlock reading');
      await page.screenshot({ path: join(SHOTS, 'calculator-redlock.png') });
      await service.selectOption('generic');
      await until(async () => Number(await verdict.getAttribute('data-overlap-ms')) === stated, 'generic again');

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

  // Two lessons the calculator once called safe though their own runs break: a job whose
  // later writes come long after its lease (the figure is about its first), and an email
  // that no fence at storage can refuse, fence or not.
  test('says what the figure leaves out of the job, and asks about the last write in one press', async () => {
    for (const viewport of [{ width: 1280, height: 900 }, { width: 390, height: 844 }]) {
      const at = `${viewport.width}`;
      const { context, page, problems } = await openApp(h.browser, `${h.url}#s=ttl-shorter-than-work`, { viewport });
      try {
        await page.locator('details.panel.calculator > summary').click();
        const panel = page.locator('details.panel.calculator[open]');
        const verdict = panel.locator('p.calc-verdict');
        await verdict.waitFor({ timeout: WAIT });
        assert.match(await verdict.innerText(), /^Safe/, `${at}: the first write alone is safe`);
        await panel.getByText('Its job goes on after that first write (3 more writes and 1 more effect').waitFor();
        const ask = panel.getByRole('button', { name: 'Ask about the last write: W = 1500000 ms' });
        const [b, w] = [await ask.boundingBox(), await panel.boundingBox()];
        assert.ok(b.x >= w.x && b.x + b.width <= w.x + w.width + 0.5, `${at}: the button inside the panel ${JSON.stringify(b)}`);
        await ask.click();
        assert.equal(await panel.getByLabel(/^Work before the write/).first().inputValue(), '1500000');
        await until(async () => /^Unsafe: overlap up to 900\.015 s/.test(await verdict.innerText()), `${at}: the last write overlaps`);
        assert.equal(await ask.count(), 0, `${at}: asked, the button goes`);
        await panel.scrollIntoViewIfNeeded();
        await page.screenshot({ path: join(SHOTS, `calculator-last-write-${at}.png`) });
        assert.deepEqual(problems, []);
      } finally {
        await context.close();
      }
    }
    const { context, page, problems } = await openApp(h.browser, `${h.url}#s=unfenceable-effect`, LAPTOP);
    try {
      await page.locator('details.panel.calculator > summary').click();
      const panel = page.locator('details.panel.calculator[open]');
      const verdict = panel.locator('p.calc-verdict');
      await verdict.waitFor({ timeout: WAIT });
      // An email's verdict stays unsafe whatever fence is picked.
      for (const fence of ['monotone', 'none']) {
        await panel.getByLabel('Fence at storage', { exact: true }).selectOption(fence);
        await until(async () => /^Unsafe: .*damage is possible/.test(await verdict.innerText()), `fence ${fence}: still unsafe`);
        const advice = await panel.locator('.calc-advice').innerText();
        assert.match(advice, /is an effect \(“email order 42 confirmation”\)/, `fence ${fence}`);
        assert.doesNotMatch(advice, /makes any overlap harmless/, `fence ${fence}`);
      }
      // A fix that drops the lock has no holder: the panel says so rather than bound one.
      await page.evaluate(() => (location.hash = '#s=conditional-write/conditional'));
      await panel.getByText("Not for this client on generic: c1's job takes no lock (no acquire step), so there is no holder to bound.").waitFor();
      assert.equal(await verdict.count(), 0);
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  });
});

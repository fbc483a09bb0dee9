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
      assert.match(text, /First difference at t = 50\.005s: A — storage: write accepted; B — storage: write rejected/);
      const lines = text.split('\n');
      assert.ok(
        lines.includes("A: GC pause longer than the TTL (lock service: generic; fence: off — storage trusts the lock) — unsafe — storage accepted client 1's write with token 33 after it had accepted token 34 from client 2: a superseded holder (a client whose lock had already passed to another) changed the data"),
        text,
      );
      assert.ok(lines.includes('B, the fence switched: GC pause longer than the TTL (lock service: generic; fence: reject lower tokens) — safe — the fence refused 1 stale write(s)'), text);
      await bar.getByRole('button', { name: 'Jump there' }).click();
      const { slider } = playback(page);
      await until(async () => (await slider.getAttribute('aria-valuetext')).startsWith('t = 50.005s,'), 'the cursor at the difference (t = 50.005 s)');
      assert.equal(await slider.inputValue(), '50005');
      // One cursor: both drawings show it at the same place.
      const x = (loc) => loc.locator('line.cursor').getAttribute('x1');
      assert.equal(await x(a), await x(b));
      assert.match(page.url(), /panel=compare/);
      await page.screenshot({ path: join(SHOTS, 'compare.png'), fullPage: true });
      // A lesson against its fix, chosen from the list.
      await page.goto(`${h.url}#s=partition-duplicate-effects&panel=compare`);
      await bar.waitFor();
      await bar.getByRole('combobox', { name: 'Compare with' }).selectOption('partition-duplicate-effects/stop-on-loss');
      // Each side's verdict line, whole: "safe" must not be found inside "unsafe".
      const line = async (side) => (await bar.innerText()).split('\n').find((l) => l.startsWith(`${side}: `) || l.startsWith(`${side}, `));
      const lesson = 'Partitioned from the lock service, not from storage';
      await until(async () => (await line('B')) === `B: ${lesson} (lock service: generic; fence: off — storage trusts the lock; client 1 stops its job when it loses the lease) — safe`, 'the fix on the B side').catch(async (e) => {
        e.message += `; B reads: ${await line('B')}`;
        throw e;
      });
      assert.equal(
        await line('A'),
        `A: ${lesson} (lock service: generic; fence: off — storage trusts the lock; client 1 carries on when it loses the lease) — unsafe — storage accepted client 1's write with token 33 after it had accepted token 34 from client 2: a superseded holder (a client whose lock had already passed to another) changed the data`,
      );
      assert.match(await bar.innerText(), /First difference at t = 90\.010s: A — client 1: loss ignored; B — client 1: job aborted\./);
      await bar.getByRole('button', { name: 'Stop comparing' }).click();
      assert.equal(await b.count(), 0);
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  });

  test('after an edit, Compare shows the run before it; both diagrams fit on one 1280x800 screen', async () => {
    const { context, page, problems } = await openApp(h.browser, h.url, { viewport: { width: 1280, height: 800 } });
    try {
      const a = page.getByRole('region', { name: 'Space-time diagram', exact: true });
      const original = await a.getAttribute('data-digest');
      await page.keyboard.press('f');
      await until(async () => (await a.getAttribute('data-digest')) !== original, 'the edit');
      // The editor's Run pressed again with nothing changed: a step for undo, not a run to
      // compare with ("before my last edit" is still the run before the fence was switched).
      const edited = await a.getAttribute('data-digest');
      await page.locator('details.editor > summary').click();
      await page.locator('details.editor').getByRole('button', { name: 'Run this scenario' }).click();
      await until(async () => await page.getByRole('button', { name: 'Undo' }).isEnabled(), 'a step to undo');
      assert.equal(await a.getAttribute('data-digest'), edited, 'the same run');
      await page.locator('details.editor > summary').click();
      await page.getByRole('button', { name: 'Compare', exact: true }).click();
      const bar = page.getByRole('region', { name: 'Compare' });
      await bar.waitFor();
      const choice = bar.getByRole('combobox', { name: 'Compare with' });
      assert.equal(await choice.locator('option:checked').innerText(), 'this run before my last edit');
      const b = page.getByRole('region', { name: 'Space-time diagram B' });
      assert.equal(await b.getAttribute('data-digest'), original, 'B is the run before the edit');
      assert.match(await bar.innerText(), /First difference/);
      // The two sides share a name; their labels say which is which and what differs.
      const lines = (await bar.innerText()).split('\n');
      const sideA = lines.find((l) => l.startsWith('A: '));
      const sideB = lines.find((l) => l.startsWith('B, before your last edit: '));
      assert.match(sideA, /\(lock service: generic; fence: reject lower tokens\)/, sideA);
      assert.match(sideB, /\(lock service: generic; fence: off — storage trusts the lock\)/, sideB);
      // Both drawings on one screen: from A's top to B's bottom is at most the viewport.
      await a.evaluate((el) => el.scrollIntoView({ block: 'start' }));
      const top = (await a.boundingBox()).y;
      const box = await b.boundingBox();
      assert.ok(box.y + box.height - top <= 800, `A's top to B's bottom: ${Math.round(box.y + box.height - top)} px`);
      await page.screenshot({ path: join(SHOTS, 'compare-before-edit.png') });
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  });
});

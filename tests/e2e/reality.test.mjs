// End-to-end: model vs reality. The Lessons menu's last section opens a lab
// recording of a real Redis run: the recorded run is drawn and judged (unsafe: the stale
// write got through), the model's run of the same scenario is drawn below it, and the page
// says they agree on every key moment, on one time axis; the same recording with one moment
// moved 300 ms is named as the first to depart. A recorded trace imported from a file opens
// too; a malformed one is refused with its line and field while the run on screen stays,
// and a scenario file is named as one. A Jepsen history opens through the same field,
// whose file dialog offers .edn and .json.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ROOT, SHOTS, digestOf, harness, openApp, playback, until } from './lib.mjs';

const LAPTOP = { viewport: { width: 1280, height: 900 } };

describe('model vs reality', () => {
  const h = harness();

  test('a lab recording opens from the Lessons menu, beside the model, and they agree', async () => {
    const { context, page, problems } = await openApp(h.browser, `${h.url}#s=gc-pause`, LAPTOP);
    try {
      await page.getByRole('button', { name: 'Lessons', exact: true }).click();
      const menu = page.getByRole('navigation', { name: 'Lessons' });
      await menu.getByRole('link', { name: /^Recorded on a real Redis/ }).click();
      const description = page.locator('.scenario-description.recorded');
      await description.waitFor();
      assert.match(await description.textContent(), /Recorded on a real Redis.*What happened on a real redis/);
      assert.match(page.url(), /#rec=gc-pause-redis$/);
      const bar = page.getByRole('region', { name: 'Model vs reality' });
      assert.match(await bar.textContent(), /Model and reality agree on all \d+ key moments/);
      assert.match(await bar.textContent(), /Real \(above\): .*unsafe|Real \(above\): .*stale/i);
      assert.equal(await page.locator('section.diagram.versus').count(), 1, "the model's run is drawn");
      // One time axis: the recording and the model's run end at different times, and each
      // second's tick sits at the same place in both drawings.
      const ticks = await page.$$eval('section.diagram svg.timeline', (svgs) =>
        svgs.map((s) => [...s.querySelectorAll('.axis text, text.tick')].map((t) => [t.textContent, Math.round(t.getBoundingClientRect().x)])),
      );
      assert.equal(ticks.length, 2);
      assert.ok(ticks[0].length >= 3, JSON.stringify(ticks));
      assert.deepEqual(ticks[1], ticks[0], 'the same axis above and below');
      assert.equal(await menu.count(), 0, 'the menu closed');
      await page.keyboard.press('End');
      await page.locator('section.diagram').first().scrollIntoViewIfNeeded();
      await page.screenshot({ path: join(SHOTS, 'reality.png'), fullPage: true });
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  });

  test('a recording made to differ: the page names the first moment that departs and jumps to it', async () => {
    const { context, page, problems } = await openApp(h.browser, `${h.url}#s=gc-pause`, LAPTOP);
    try {
      // The Redis recording with everything from client 2's accepted write on moved 300 ms
      // later: the same story, one moment far off the model's time.
      const lines = (await readFile(join(ROOT, 'tests/recorded/lab/gc-pause-redis.ndjson'), 'utf8')).split('\n');
      const from = lines.findIndex((l) => l.includes('"event":"write_accepted","client":"c2"'));
      assert.ok(from > 0);
      const moved = lines.map((l, i) => (i >= from ? l.replace(/"t_us":(\d+)/, (_, t) => `"t_us":${Number(t) + 300_000}`) : l)).join('\n');
      await context.route(/\/lab\/gc-pause-redis\.ndjson$/, (route) => route.fulfill({ status: 200, contentType: 'application/x-ndjson', body: moved }));
      await page.evaluate(() => {
        location.hash = '#rec=gc-pause-redis';
      });
      const bar = page.getByRole('region', { name: 'Model vs reality' });
      await bar.waitFor();
      const text = await bar.textContent();
      assert.match(text, /Model and reality tell the same story \(4 key moments, in the same order\), but the first moment to depart is client 2's write, accepted: 0\.(29|30)\ds apart, beyond the ±50 ms target\./, text);
      await bar.getByRole('button', { name: 'Jump there' }).click();
      const { slider } = playback(page);
      await until(async () => /^t = 2\.53\ds,/.test(await slider.getAttribute('aria-valuetext')), 'the cursor at the moved write (2.53x s)');
      await page.screenshot({ path: join(SHOTS, 'reality-departs.png'), fullPage: true });
      // The unmodified recording agrees within the target (the test above).
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  });

  test('a recorded trace file imports; a malformed one is refused with its line and field', async () => {
    const { context, page, problems } = await openApp(h.browser, `${h.url}#s=delayed-write`, LAPTOP);
    try {
      const before = await digestOf(page);
      await page.locator('details.io > summary').click();
      const input = page.getByLabel(/Import a recorded trace/);
      const good = await readFile(join(ROOT, 'tests/recorded/lab/gc-pause-etcd.ndjson'), 'utf8');
      const bad = good.replace(/"t_us":\d+/, '"t_us":"soon"');
      await input.setInputFiles({ name: 'bad.ndjson', mimeType: 'application/x-ndjson', buffer: Buffer.from(bad) });
      const alert = page.getByRole('alert');
      await alert.waitFor();
      assert.match(await alert.textContent(), /recorded trace: line \d+, field `t_us`/);
      assert.equal(await digestOf(page), before, 'the run on screen stays');
      // A scenario file picked here (the dialog offers .json, as a Jepsen history may be
      // one) is named as a scenario, with where it opens; the run stays.
      const scenario = await readFile(join(ROOT, 'src/teach/library/slow-client-clock.json'));
      await input.setInputFiles({ name: 'slow-client-clock.json', mimeType: 'application/json', buffer: scenario });
      await until(async () => /a scenario \(docs\/scenario-format\.md\), not a recording/.test(await alert.textContent()), 'the scenario named');
      assert.match(await alert.textContent(), /Import a scenario file/);
      assert.equal(await digestOf(page), before, 'the run on screen stays');
      await input.setInputFiles({ name: 'etcd.ndjson', mimeType: 'application/x-ndjson', buffer: Buffer.from(good) });
      await until(async () => (await digestOf(page)) !== before, 'the recording replaced the run');
      await page.locator('.scenario-description.recorded').waitFor();
      assert.ok(page.url().endsWith('#s=delayed-write'), `the address is left alone: ${page.url()}`);
      // A file picked here names no built-in scenario: the scenario under it only stands in,
      // so the inspector says the recording's service and claims no fence the stand-in has.
      const inspector = page.getByRole('region', { name: 'Inspector' });
      assert.match(await inspector.locator('p.service').innerText(), /^Lock service: etcd \(recorded\)\. What it offers is what the trace shows/);
      assert.equal(await inspector.locator('details.explainer').count(), 0);
      assert.match(await inspector.innerText(), /fence: as the trace shows/);
      assert.doesNotMatch(await inspector.innerText(), /generic|fence: off/);
      const fence = page.getByRole('toolbar', { name: 'Playback' }).getByRole('button', { name: /^Fencing/ });
      assert.equal(await fence.innerText(), 'Fencing: as recorded');
      assert.ok(await fence.isDisabled(), 'no model run of this recording to switch');
      // Nor do the tools that read a scenario answer about the stand-in.
      await page.locator('details.calculator > summary').click();
      const calculator = page.locator('details.calculator');
      assert.match(await calculator.innerText(), /names no scenario of the model, so there is none here to bound/);
      assert.doesNotMatch(await calculator.innerText(), /overlap up to/);
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  });
  test("a Jepsen lock history imports through the same input: a stale write accepted is judged unsafe; a bad operation is refused by line and key", async () => {
    const { context, page, problems } = await openApp(h.browser, `${h.url}#s=delayed-write`, LAPTOP);
    try {
      const before = await digestOf(page);
      await page.locator('details.io > summary').click();
      const input = page.getByLabel(/Import a recorded trace/);
      // The file dialog offers what the import reads (it greys out what `accept` leaves
      // out; Playwright's setInputFiles would not), and the field says so and links both
      // formats' pages, which the build ships.
      const accept = (await input.getAttribute('accept')).split(',');
      for (const ext of ['.ndjson', '.edn', '.json']) assert.ok(accept.includes(ext), `the picker offers ${ext}: ${accept}`);
      assert.match(await page.locator('details.io').innerText(), /Jepsen history \(EDN or JSON\)/);
      for (const name of ['recorded traces', 'Jepsen histories']) {
        const href = await page.locator('details.io').getByRole('link', { name }).evaluate((a) => a.href);
        const res = await page.request.get(href);
        assert.equal(res.status(), 200, `${name}: ${href}`);
      }
      // Worked out by hand: process 0 holds token 1; process 1 acquires token 2 while 0
      // still believes it holds, writes, and then process 0's write with token 1 is
      // accepted after it — a stale write.
      const history = [
        '{:type :invoke, :f :acquire, :process 0, :time 1000000000, :index 0}',
        '{:type :ok, :f :acquire, :process 0, :time 1100000000, :index 1, :value 1}',
        '{:type :invoke, :f :acquire, :process 1, :time 1900000000, :index 2}',
        '{:type :ok, :f :acquire, :process 1, :time 2000000000, :index 3, :value 2}',
        '{:type :invoke, :f :write, :process 1, :time 2100000000, :index 4, :value [2 "b"]}',
        '{:type :ok, :f :write, :process 1, :time 2200000000, :index 5, :value [2 "b"]}',
        '{:type :invoke, :f :write, :process 0, :time 2500000000, :index 6, :value [1 "a"]}',
        '{:type :ok, :f :write, :process 0, :time 2600000000, :index 7, :value [1 "a"]}',
      ].join('\n');
      const bad = history.replace(':type :invoke, :f :write, :process 0', ':type :maybe, :f :write, :process 0');
      await input.setInputFiles({ name: 'bad.edn', mimeType: 'application/edn', buffer: Buffer.from(bad) });
      const alert = page.getByRole('alert');
      await alert.waitFor();
      assert.match(await alert.textContent(), /line 7, field `:?type`/);
      assert.equal(await digestOf(page), before, 'the run on screen stays');
      await input.setInputFiles({ name: 'lock.edn', mimeType: 'application/edn', buffer: Buffer.from(history) });
      await until(async () => (await digestOf(page)) !== before, 'the history replaced the run');
      // The page calls the history's processes clients; it says which is which.
      const about = page.locator('.scenario-description.recorded');
      assert.match(await about.innerText(), /Its nodes: “process 0” is client 1, “process 1” is client 2\./);
      await page.keyboard.press('End');
      const verdict = page.locator('.verdict');
      await until(async () => /unsafe/i.test(await verdict.first().textContent()), 'judged unsafe');
      assert.match(await verdict.first().textContent(), /stale/i);
      // A process's operations are its job: both completed theirs.
      assert.doesNotMatch(await verdict.first().textContent(), /never started/);
      await page.locator('section.diagram').first().scrollIntoViewIfNeeded();
      await page.screenshot({ path: join(SHOTS, 'reality-jepsen.png') });
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  });
});

// End-to-end: the senior engineer's path through the scenario editor. On the GC-pause run they type a TTL of 0 and are told
// at the TTL box, in seconds and plain words, with nothing applied; they set what decides
// safety (stop on losing the lease, check before each write); they add a pause through the
// fault form — a kind picked, its fields typed key by key, no JSON — run it, see the run
// change with the pause in it, and see the description marked as the original's; an edit
// stays marked after a reload. Then their own question: the pause placed by an event
// ("3 s after client 1 acquires the lock"), the run tried on etcd and ZooKeeper, the two
// compared, and the result exported.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { SHOTS, digestOf, harness, openApp, until } from './lib.mjs';

const LAPTOP = { viewport: { width: 1280, height: 900 } };

describe('the senior engineer edits a run', () => {
  const h = harness();

  test('errors at the field, safety settings, a fault from the form, and the original marked', async () => {
    const { context, page, problems } = await openApp(h.browser, `${h.url}#s=gc-pause`, LAPTOP);
    try {
      const description = page.locator('.scenario-description');
      const original = await description.innerText();
      assert.doesNotMatch(original, /^From the original scenario/);
      const before = await digestOf(page);

      await page.locator('details.editor > summary').click();
      const editor = page.locator('details.editor');
      const status = editor.getByRole('status');
      const client1 = editor.locator('fieldset.client').first();

      // A TTL of 0, said at the TTL box in seconds; nothing applied.
      const ttl = client1.getByLabel('TTL (s)');
      const ttlBefore = await ttl.inputValue();
      await ttl.fill('');
      await ttl.pressSequentially('0');
      assert.equal(await ttl.getAttribute('aria-invalid'), 'true');
      const noteId = await ttl.getAttribute('aria-describedby');
      assert.ok(noteId, 'the box points at its message');
      const note = page.locator(`[id="${noteId}"]`);
      assert.equal(await note.innerText(), 'TTL must be between 0.001 s and 86,400 s');
      assert.ok(await note.isVisible(), 'the message is next to the field');
      const [boxAt, noteAt] = [await ttl.boundingBox(), await note.boundingBox()];
      assert.ok(Math.abs(noteAt.y - boxAt.y) < 80, 'the message is at the field, not in a banner');
      assert.match(await status.innerText(), /^Not ready to run\. Client 1: TTL must be between/);
      assert.ok(await editor.getByRole('button', { name: 'Run this scenario' }).isDisabled());
      assert.equal(await page.locator('.error[role="alert"]').count(), 0, 'no banner');
      assert.equal(await digestOf(page), before, 'nothing applied');
      await ttl.fill(ttlBefore);
      assert.equal(await ttl.getAttribute('aria-invalid'), 'false');

      // What decides safety.
      await client1.getByLabel('On losing the lease').selectOption({ label: 'stop the job' });
      await client1.getByLabel('Check the lease before each write').check();
      // Plain labels; the format's field name is in the title.
      assert.equal(await client1.locator('label[title="clients[0].on_loss"] > span').innerText(), 'On losing the lease');

      // A pause added through the fault form, its fields typed key by key.
      const faults = editor.locator('fieldset.faults');
      const rows = faults.locator('fieldset.fault-row');
      const n = await rows.count();
      await faults.getByLabel('Kind of fault to add').selectOption('pause');
      await faults.getByRole('button', { name: 'Add this fault' }).click();
      assert.equal(await rows.count(), n + 1);
      const row = rows.nth(n);
      assert.equal(await row.getByLabel('Fault', { exact: true }).inputValue(), 'pause');
      const at = row.getByLabel('At (s)');
      await at.fill('');
      assert.equal(await at.getAttribute('aria-invalid'), 'true', 'an empty time is marked');
      await at.pressSequentially('20');
      await row.getByLabel('Node', { exact: true }).selectOption({ label: 'Client 2' });
      const lasting = row.getByLabel('Lasting (s)');
      await lasting.fill('');
      await lasting.pressSequentially('12.5');
      assert.equal(await lasting.inputValue(), '12.5', 'every keystroke kept');
      assert.equal(await at.getAttribute('aria-invalid'), 'false');
      assert.match(await status.innerText(), new RegExp(`^Valid: 2 client\\(s\\), ${n + 1} fault\\(s\\)`));
      // The JSON view agrees with the form.
      await faults.locator('details.advanced > summary').click();
      const json = JSON.parse(await faults.getByLabel('Faults (JSON)').inputValue());
      // (The form's JSON names the pause's cause it shows; the scenario's JSON leaves out
      // the default.)
      assert.deepEqual(json[n], { at_ms: 20000, fault: 'pause', node: 'c2', for_ms: 12500, cause: 'gc' });
      await editor.scrollIntoViewIfNeeded();

      await editor.getByRole('button', { name: 'Run this scenario' }).click();
      await until(async () => (await digestOf(page)) !== before, 'the edited run');
      // The pause is in the run: client 2 is paused at 20 s in the transcript.
      const transcript = page.locator('details.transcript');
      await transcript.locator('summary').click();
      const lines = await transcript.locator('li').allInnerTexts();
      assert.ok(
        lines.some((l) => l.includes('t = 20.0 s') && /client 2/i.test(l) && /paus/i.test(l)),
        `client 2 paused at 20 s in:\n${lines.slice(0, 40).join('\n')}`,
      );
      // The description is marked as the original's.
      await until(async () => /^From the original scenario \(before your edits\): /.test(await description.innerText()), 'the marked description');
      assert.ok((await description.innerText()).endsWith(original));
      // …and so is the walkthrough, whose beats were written for the original run.
      assert.match(await page.getByRole('region', { name: 'Walkthrough' }).innerText(), /You have edited this scenario/);
      // The picker no longer calls it the preset (picking the preset opens the original).
      const picked = () => page.getByRole('combobox', { name: 'Scenario' }).evaluate((s) => s.options[s.selectedIndex].text);
      assert.match(await picked(), /^Edited: /);

      await faults.screenshot({ path: join(SHOTS, 'engineer-faults.png') });
      await client1.screenshot({ path: join(SHOTS, 'engineer-client.png') });
      // The edited run to its end: client 2's pause is drawn in the diagram.
      await page.evaluate(() => document.activeElement?.blur());
      await page.keyboard.press('End');
      const titles = () =>
        page.evaluate(() => [...document.querySelectorAll('svg.timeline title')].map((t) => t.textContent));
      await until(async () => (await titles()).includes('20.000s: client 2 — paused 12.500s'), "client 2's pause in the diagram");
      await page.evaluate(() => window.scrollTo(0, 0));
      await page.screenshot({ path: join(SHOTS, 'engineer.png') });
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  });

  test('a run edited through its link stays marked as edited after a reload', async () => {
    const { context, page, problems } = await openApp(h.browser, `${h.url}#s=gc-pause`, LAPTOP);
    try {
      const description = page.locator('.scenario-description');
      const original = await description.innerText();
      const picked = () => page.getByRole('combobox', { name: 'Scenario' }).evaluate((s) => s.options[s.selectedIndex].text);
      const preset = await picked();
      const before = await digestOf(page);
      await page.locator('details.editor > summary').click();
      const editor = page.locator('details.editor');
      await editor.getByLabel('Lock service', { exact: true }).selectOption('redis');
      await editor.getByRole('button', { name: 'Run this scenario' }).click();
      await until(async () => (await digestOf(page)) !== before, 'the Redis run');
      await until(async () => /flavor=redis/.test(page.url()), 'the link names the change');
      const edited = await digestOf(page);
      for (const when of ['after the edit', 'after a reload']) {
        if (when === 'after a reload') {
          await page.reload();
          await until(async () => (await digestOf(page)) === edited, 'the same run after the reload');
        }
        await until(async () => (await description.innerText()).startsWith('From the original scenario (before your edits): '), `${when}: the marked description`);
        assert.ok((await description.innerText()).endsWith(original), when);
        assert.match(await picked(), /^Edited: /, when);
      }
      // Picking the preset again opens the original run, unmarked.
      await page.getByRole('combobox', { name: 'Scenario' }).selectOption('gc-pause');
      await until(async () => (await digestOf(page)) === before, 'the original run');
      assert.equal(await description.innerText(), original);
      assert.equal(await picked(), preset);
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  });

  test('a pause placed by an event, tried on three lock services, compared and exported', async () => {
    const { context, page, problems } = await openApp(h.browser, `${h.url}#s=gc-pause`, { ...LAPTOP, acceptDownloads: true });
    try {
      const description = page.locator('.scenario-description');
      const original = await description.innerText();
      await page.locator('details.editor > summary').click();
      const editor = page.locator('details.editor');
      const run = async (what) => {
        const before = await digestOf(page);
        await editor.getByRole('button', { name: 'Run this scenario' }).click();
        await until(async () => (await digestOf(page)) !== before, what);
      };
      // The opening lesson's pause, placed 3 s after client 1 acquires the lock.
      const row = editor.locator('fieldset.fault-row').first();
      assert.equal(await row.getByLabel('At (s)').inputValue(), '10', 'at a true time first');
      await row.getByLabel('When', { exact: true }).selectOption({ label: 'after a client acquires' });
      assert.equal(await row.getByLabel('Whose', { exact: true }).locator('option:checked').innerText(), 'Client 1');
      const by = row.getByLabel('After it by (s)');
      await by.fill('');
      await by.pressSequentially('3');
      // Shown as both: the event, and the time it gives in the run on screen.
      const placed = row.locator('.fault-when');
      const said = async () => {
        const m = /^In the run on screen, client 1 acquires the lock at ([\d.]+) s: this fault comes at ([\d.]+) s\.$/.exec(await placed.innerText());
        assert.ok(m, await placed.innerText());
        assert.equal(Math.round((Number(m[2]) - Number(m[1])) * 1000), 3000);
        return Number(m[2]);
      };
      await said();
      await row.screenshot({ path: join(SHOTS, 'engineer-fault-after-event.png') });
      await run('the run with the pause after the acquire');
      const at = await said();
      // The run has the pause there: the transcript says so.
      const transcript = page.locator('details.transcript');
      await transcript.locator('summary').click();
      const paused = async () => {
        const lines = await transcript.locator('li').allInnerTexts();
        return lines.some((l) => l.startsWith(`t = ${at.toFixed(1)} s`) && /client 1/i.test(l) && /paus/i.test(l));
      };
      await until(paused, `client 1 paused at ${at.toFixed(1)} s`);

      // No two labels stacked on one spot (repeated ones are bundled with a count).
      const stacked = (texts) => {
        const seen = new Map();
        for (const [t, x, y] of texts) {
          const k = `${t}@${Math.round(x)},${Math.round(y)}`;
          seen.set(k, (seen.get(k) ?? 0) + 1);
        }
        return [...seen].filter(([, n]) => n > 1);
      };
      const drawn = () =>
        page.evaluate(() =>
          [...document.querySelectorAll('section[aria-label="Space-time diagram"] svg.timeline text')].map((t) => [
            t.textContent,
            Number(t.getAttribute('x')),
            Number(t.getAttribute('y')),
          ]),
        );

      // The same question on Redis (whose busy replies client 2 retries), etcd, then
      // ZooKeeper: the pause follows the acquire on each.
      const verdicts = {};
      for (const service of ['redis', 'etcd', 'zookeeper']) {
        await editor.getByLabel('Lock service', { exact: true }).selectOption(service);
        await run(`the ${service} run`);
        const now = await said();
        assert.ok(now >= 3, `${service}: the pause at ${now} s`);
        await page.evaluate(() => document.activeElement?.blur());
        await page.keyboard.press('End');
        const head = page.getByRole('region', { name: 'Verdict' }).getByRole('heading');
        await until(async () => /^(Safe|Unsafe)/.test(await head.innerText()), `${service}: a verdict`);
        verdicts[service] = await head.innerText();
        assert.deepEqual(stacked(await drawn()), [], `${service}: labels stacked on one spot`);
        assert.ok((await drawn()).length > 10, `${service}: the diagram's labels are read`);
      }
      // Named as edited, with the original's description marked as such.
      const picked = () => page.getByRole('combobox', { name: 'Scenario' }).evaluate((s) => s.options[s.selectedIndex].text);
      const marked = `From the original scenario (before your edits): ${original}`;
      assert.match(await picked(), /^Edited: /);
      assert.equal(await description.innerText(), marked);

      // Compared with the run before the last edit: the etcd run, each side labelled by
      // its lock service.
      await page.getByRole('button', { name: 'Compare', exact: true }).click();
      const bar = page.getByRole('region', { name: 'Compare' });
      await bar.waitFor();
      await bar.getByRole('combobox', { name: 'Compare with' }).selectOption({ label: 'this run before my last edit' });
      await until(async () => /B, before your last edit: /.test(await bar.innerText()), 'side B');
      const lines = (await bar.innerText()).split('\n');
      const sideA = lines.find((l) => l.startsWith('A: '));
      const sideB = lines.find((l) => l.startsWith('B, before your last edit: '));
      assert.match(sideA, /lock service: zookeeper/, sideA);
      assert.match(sideB, /lock service: etcd/, sideB);
      await page.screenshot({ path: join(SHOTS, 'engineer-compare-services.png') });

      // Exported: the scenario keeps the event the pause follows; the sheet says it.
      await page.locator('details.io summary').click();
      const group = page.getByRole('group', { name: 'Export' });
      const download = async (name) => {
        const [d] = await Promise.all([page.waitForEvent('download'), group.getByRole('button', { name, exact: true }).click()]);
        return (await readFile(await d.path())).toString('utf8');
      };
      const sc = JSON.parse(await download('Scenario JSON'));
      assert.equal(sc.coordinator.flavor, 'zookeeper');
      assert.deepEqual(
        [sc.faults[0].after, sc.faults[0].client, sc.faults[0].at_ms, sc.faults[0].node],
        ['acquired', 'c1', 3000, 'c1'],
      );
      const svg = await download('SVG');
      const exported = [...svg.matchAll(/<text[^>]*x="([\d.]+)" y="([\d.]+)"[^>]*>([^<]*)</g)].map((m) => [m[3], Number(m[1]), Number(m[2])]);
      assert.ok(exported.length > 10);
      assert.deepEqual(stacked(exported), [], 'labels stacked on one spot in the export');
      const settings = [...svg.matchAll(/class="sheet-settings"[^>]*>([^<]*)</g)].map((m) => m[1]).join(' ');
      assert.match(settings, /pause Client 1 40 s 3 s after client 1 acquires the lock/, settings);
      const sheet = /class="sheet-verdict[^"]*"[^>]*>([^<]*)</.exec(svg);
      assert.ok(sheet, 'a verdict on the sheet');
      assert.equal(sheet[1].slice(0, 6), verdicts.zookeeper.slice(0, 6), 'the verdict the page gave');

      // A reload gives the same run, still named as edited (undo's steps are the page's
      // and go with it).
      const edited = await digestOf(page);
      await until(async () => /[#&]sc=/.test(page.url()), 'the link carries the scenario');
      await page.reload();
      await until(async () => (await digestOf(page)) === edited, 'the same run after a reload');
      assert.match(await picked(), /^Edited: /, 'after a reload');
      assert.equal(await description.innerText(), marked, 'after a reload');
      await page.locator('details.editor > summary').click();
      await said();
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  });
});

// End-to-end: the scenario editor — a form validated as you type (errors said at the field,
// in its unit),
// clients added and run, and the draft kept across a reload.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { SHOTS, digestOf, harness, openApp, until } from './lib.mjs';

const LAPTOP = { viewport: { width: 1280, height: 900 } };

describe('scenario editor', () => {
  const h = harness();

  test('validated as you type, runs, and survives a reload', async () => {
    const { context, page, problems } = await openApp(h.browser, h.url, LAPTOP);
    try {
      await page.locator('details.editor > summary').click();
      const editor = page.locator('details.editor');
      const status = editor.getByRole('status');
      assert.equal(await status.innerText(), 'Valid: 2 client(s), 1 fault(s). Run it to see what happens.');
      const ttl = editor.locator('fieldset.client').first().getByLabel('TTL (s)');
      await ttl.fill('abc');
      assert.equal(await status.innerText(), 'Not ready to run. Client 1: TTL must be a number of seconds, such as 30 or 2.5');
      await ttl.fill('-5');
      assert.match(await status.innerText(), /TTL must be between 0\.001 s and 86,400 s/);
      assert.ok(await editor.getByRole('button', { name: 'Run this scenario' }).isDisabled());
      await ttl.fill('45');
      await editor.getByRole('button', { name: 'Add a client' }).click();
      assert.match(await status.innerText(), /^Valid: 3 client\(s\)/);
      const before = await digestOf(page);
      await editor.getByRole('button', { name: 'Run this scenario' }).click();
      await until(async () => (await digestOf(page)) !== before, 'the new run');
      assert.equal(await page.locator('svg.timeline g.lane').count(), 5, 'three clients, the lock service, storage');
      // A change not yet run is kept in this browser and offered after a reload; the form
      // itself opens on the run on screen (the link carries the edited run).
      await editor.getByLabel('Seed').fill('99');
      await page.reload();
      await page.getByRole('banner').waitFor();
      const again = page.locator('details.editor');
      await again.locator(':scope > summary').click();
      assert.equal(await again.locator('fieldset.client').count(), 3);
      assert.equal(await again.locator('fieldset.client').first().getByLabel('TTL (s)').inputValue(), '45');
      assert.notEqual(await again.getByLabel('Seed').inputValue(), '99', 'opens on the run on screen');
      assert.match(await again.innerText(), /kept your draft from last time/);
      await again.getByRole('button', { name: 'Restore it' }).click();
      assert.equal(await again.getByLabel('Seed').inputValue(), '99');
      await again.scrollIntoViewIfNeeded();
      await again.screenshot({ path: join(SHOTS, 'editor.png') });
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  });

  test('a form emptied of clients says so, its fault has none to choose, and a client can be added back', async () => {
    const { context, page, problems } = await openApp(h.browser, h.url, LAPTOP);
    try {
      await page.locator('details.editor > summary').click();
      const editor = page.locator('details.editor');
      // The default run's pause, moved to follow a client's grant, then every client removed.
      await editor.getByRole('combobox', { name: 'When' }).selectOption('acquired');
      await editor.getByRole('button', { name: 'Remove client 2' }).click();
      await editor.getByRole('button', { name: 'Remove client 1' }).click();
      assert.equal(await editor.locator('fieldset.client').count(), 0);
      const whose = editor.getByRole('combobox', { name: 'Whose' });
      assert.equal(await whose.count(), 1, "the pause's Whose field is still there");
      assert.ok(await whose.isDisabled(), 'an empty choice cannot be opened');
      assert.equal((await whose.innerText()).trim(), 'none yet: add one');
      assert.equal(await editor.getByRole('status').innerText(), 'Not ready to run. Clients: at least one client is needed');
      const run = editor.getByRole('button', { name: 'Run this scenario' });
      assert.ok(await run.isDisabled());
      // Seen as such: dimmed like a playback control that cannot act.
      assert.ok(Number(await run.evaluate((b) => getComputedStyle(b).opacity)) < 0.6, 'a disabled Run looks disabled');
      // Adding a client back gives the field its choice again.
      await editor.getByRole('button', { name: 'Add a client' }).click();
      await until(() => whose.isEnabled(), 'the Whose field has its client to choose again');
      assert.equal(await editor.locator('fieldset.client').count(), 1);
      assert.match(await editor.getByRole('status').innerText(), /^Valid: 1 client\(s\), 1 fault\(s\)/);
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  });
});

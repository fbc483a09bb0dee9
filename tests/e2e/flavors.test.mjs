// End-to-end: real lock services as coordinator flavors — switching the flavor in the
// settings re-runs the scenario and changes the lanes (Redlock's five masters get one each),
// the inspector names the service and the fence it offers, the link keeps the flavor, and a
// lock-service preset reaches its verdict and its remedy from the chapter menu.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { SHOTS, digestOf, harness, openApp, playback, until } from './lib.mjs';

const LAPTOP = { viewport: { width: 1280, height: 900 } };

const lanes = (page) => page.locator('svg.timeline g.lane').count();
const digest = digestOf;
const verdict = (page) => page.getByRole('region', { name: 'Verdict' }).getByRole('heading').innerText();

describe('lock services', () => {
  const h = harness();

  test('switching the flavor re-runs the scenario and the lanes change; the link keeps it', async () => {
    const { context, page, problems } = await openApp(h.browser, h.url, LAPTOP);
    try {
      assert.equal(await lanes(page), 4, 'two clients, the lock service, storage');
      const inspector = page.getByRole('region', { name: 'Inspector' });
      assert.match(await inspector.innerText(), /Lock service: generic/);
      const before = await digest(page);
      await page.locator('details.settings summary').click();
      await page.getByRole('combobox', { name: 'Lock service' }).selectOption('redlock');
      await until(async () => (await digest(page)) !== before, 'the re-run');
      assert.equal(await lanes(page), 8, 'two clients, five masters, storage');
      assert.match(await inspector.innerText(), /Lock service: redlock/);
      assert.match(await inspector.innerText(), /Fence it offers: none/i);
      assert.equal(await page.locator('svg.stage g[role=button][aria-label^="lock service 5"]').count(), 1);
      await until(async () => /flavor=redlock/.test(page.url()), 'the flavor in the link');
      await page.screenshot({ path: join(SHOTS, 'redlock.png'), fullPage: true });
      const redlock = await digest(page);
      await page.reload();
      await page.getByRole('banner').waitFor();
      await until(async () => (await digest(page)) === redlock, 'the same run after a reload');
      assert.equal(await lanes(page), 8);
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  });

  test("a lock service's preset shows its failure, and its remedy fixes it", async () => {
    const { context, page, problems } = await openApp(h.browser, h.url, LAPTOP);
    try {
      await page.getByRole('button', { name: 'Lessons' }).click();
      const menu = page.getByRole('navigation', { name: 'Lessons' });
      await menu.locator('#chapter-7').getByRole('link', { name: /ZooKeeper/i }).first().click();
      const note = page.getByRole('region', { name: 'Lock service' });
      await note.waitFor();
      assert.match(await note.innerText(), /Lock service: zookeeper/);
      await playback(page).button('Jump to end').click();
      assert.match(await verdict(page), /^Unsafe/);
      await note.getByRole('button', { name: /^Fix it: Storage checks ZooKeeper's zxid/ }).click();
      await page.getByRole('region', { name: 'Fix' }).waitFor();
      await playback(page).button('Jump to end').click();
      assert.match(await verdict(page), /^Safe/);
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  });
});

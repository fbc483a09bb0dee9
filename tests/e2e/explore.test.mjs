// End-to-end: Explore (issue #15) — the search over added faults, in a Web Worker, from
// the default page: a result appears, its run opens at its violation, its link reproduces
// it in a new tab; a fenced run is safe within the bounds; Cancel stops the worker at once;
// no console error.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { ROOT, SHOTS, digestOf, harness, openApp, until } from './lib.mjs';

/** The native tool's report for the same search (make test builds it in its native tiers). */
function nativeDigests(args) {
  const bin = ['debug', 'release'].map((p) => join(ROOT, 'target', p, 'leaseline')).find(existsSync);
  assert.ok(bin, 'the native leaseline binary is missing: run `cargo test` (make test does) first');
  const r = spawnSync(bin, ['explore', ...args, '--format', 'json'], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout).classes.map((c) => c.digest);
}

const shownDigests = (list) => list.evaluateAll((lis) => lis.map((li) => li.dataset.digest));

const LAPTOP = { viewport: { width: 1280, height: 900 } };

/** Opens the Explore panel (on the default page it brings the whole app) and returns it. */
async function openExplore(page) {
  if ((await page.locator('details.panel.explore[open]').count()) === 0) {
    await page.locator('details.panel.explore > summary').click();
  }
  const panel = page.locator('details.panel.explore[open]');
  await panel.getByRole('button', { name: 'Explore', exact: true }).waitFor({ timeout: 20_000 });
  return panel;
}

describe('explore', () => {
  const h = harness();

  test('the default page: every way it breaks, each a run that opens at its violation, here and in a new tab', async () => {
    const { context, page, problems } = await openApp(h.browser, h.url, LAPTOP);
    try {
      const panel = await openExplore(page);
      const before = await digestOf(page);
      await panel.getByRole('button', { name: 'Explore', exact: true }).click();
      const list = panel.locator('ol.explore-classes > li');
      await list.first().waitFor({ timeout: 60_000 });
      const text = await panel.innerText();
      assert.match(text, /ways? it breaks/);
      assert.match(text, /already breaks with no fault added/, 'gc-pause breaks as given, and says so');
      await panel.scrollIntoViewIfNeeded();
      await page.screenshot({ path: join(SHOTS, 'explore-result.png') });
      // Its run opens with the cursor at its first violation.
      await list.first().getByRole('button', { name: 'Open this run' }).click();
      await until(async () => Number(await page.getByRole('slider', { name: 'Time' }).inputValue()) > 0, 'the cursor moves to the violation');

      // Without the scenario's own pause: how else can it break? Each way is another run.
      await openExplore(page);
      await panel.getByRole('checkbox', { name: "Without the scenario's own faults" }).check();
      await panel.getByRole('button', { name: 'Explore', exact: true }).click();
      await until(async () => (await list.count()) > 1, 'several ways it breaks', { timeout: 60_000 });
      await panel.scrollIntoViewIfNeeded();
      await page.screenshot({ path: join(SHOTS, 'explore-clean.png') });
      // Deterministic: the worker's answer is the native tool's, class by class, and the
      // same again when asked twice.
      const shown = await shownDigests(list);
      assert.deepEqual(shown, nativeDigests(['gc-pause', '--clean']));
      await panel.getByRole('button', { name: 'Explore', exact: true }).click();
      await until(async () => (await list.count()) === 0 || (await panel.locator('.explore-progress').count()) > 0, 'a second search starts');
      await until(async () => (await list.count()) === shown.length, 'the second answer', { timeout: 60_000 });
      assert.deepEqual(await shownDigests(list), shown);
      const href = await list.first().getByRole('link', { name: 'in a new tab' }).getAttribute('href');
      await list.first().getByRole('button', { name: 'Open this run' }).click();
      const opened = await until(async () => {
        const d = await digestOf(page);
        return d !== before && d;
      }, 'the counterexample opens');
      // Its link reproduces it in a fresh tab.
      const tab = await context.newPage();
      await tab.goto(href, { waitUntil: 'load' });
      await until(async () => (await digestOf(tab)) === opened, 'the new tab shows the same run');
      await tab.close();
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  });

  test('a fenced run is safe within the bounds; Cancel stops a long search at once', async () => {
    const { context, page, problems } = await openApp(h.browser, `${h.url}#s=gc-pause-fenced`, LAPTOP);
    try {
      const panel = await openExplore(page);
      await panel.getByRole('button', { name: 'Explore', exact: true }).click();
      await panel.getByText('Safe within these bounds').waitFor({ timeout: 60_000 });
      assert.match(await panel.innerText(), /schedules tried/);

      // Three faults: a long search. Cancel ends it at once and claims nothing.
      await panel.getByRole('combobox', { name: 'Faults added (K)' }).selectOption('3');
      await panel.getByRole('button', { name: 'Explore', exact: true }).click();
      await panel.getByRole('button', { name: 'Cancel' }).click();
      await panel.getByText(/Cancelled after \d+ schedules/).waitFor();
      const after = await panel.innerText();
      await page.waitForTimeout(1000);
      assert.equal(await panel.innerText(), after, 'no progress after Cancel: the worker is gone');
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  });

  test("a fix's guide asks the search: the fenced fix holds within the bounds (from the first load)", async () => {
    const { context, page, problems } = await openApp(h.browser, h.url, LAPTOP);
    try {
      // The lesson's last beat offers its fix; the fix's panel offers the search.
      await page.keyboard.press('End');
      await page.getByRole('button', { name: /^Fix it/ }).first().click();
      await page.getByRole('button', { name: 'Explore: does this fix hold?' }).click();
      const panel = page.locator('details.panel.explore[open]');
      await panel.getByText('Safe within these bounds').waitFor({ timeout: 60_000 });
      await panel.scrollIntoViewIfNeeded();
      await page.screenshot({ path: join(SHOTS, 'explore-fix-holds.png') });
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  });
});

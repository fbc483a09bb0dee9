// End-to-end: a link lands on the exact step it was made at, even inside a group of events
// that share one millisecond (the `step=` key). A reader steps
// through the default run until the address carries a step, opens that address in a fresh
// tab, and must see the same event of the same run; the same address without its step (an
// old link) still opens, after the whole group.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { SHOTS, digestOf, harness, openApp, playback, until } from './lib.mjs';

/** "event k of n" from the time slider's accessible value. */
async function eventOf(page) {
  const text = await playback(page).slider.getAttribute('aria-valuetext');
  const m = /event (\d+) of (\d+)/.exec(text ?? '');
  assert.ok(m, `the slider says which event: ${text}`);
  return Number(m[1]);
}

describe('step-exact links', () => {
  const h = harness();

  test('a link with a step key lands on that exact step', async () => {
    const { context, page, problems } = await openApp(h.browser, `${h.url}#s=gc-pause`);
    const forward = playback(page).button('Step forward');
    let hash = '';
    for (let i = 0; i < 400 && !hash.includes('step='); i++) {
      await forward.click();
      hash = await page.evaluate(() => location.hash);
    }
    assert.match(hash, /&step=\d+/, 'stepping through the run reaches two events in one ms');
    const step = await until(async () => {
      const k = await eventOf(page);
      return hash.includes(`step=${k}`) && k;
    }, 'the address to name the step on screen');
    const digest = await digestOf(page);
    await context.close();

    // A fresh tab on the same address: same run, same event, same address.
    const fresh = await openApp(h.browser, `${h.url}${hash}`);
    await until(async () => (await eventOf(fresh.page)) === step, `event ${step} on screen`);
    assert.equal(await digestOf(fresh.page), digest);
    assert.equal(await fresh.page.evaluate(() => location.hash), hash);
    await fresh.page.screenshot({ path: join(SHOTS, 'step-link.png') });
    assert.deepEqual(fresh.problems, []);
    await fresh.context.close();

    // The same link without its step, as an older build wrote it: after the whole group.
    const old = hash.replace(/&step=\d+/, '');
    const older = await openApp(h.browser, `${h.url}${old}`);
    await until(async () => (await eventOf(older.page)) > step, 'a later event for a time-only link');
    assert.deepEqual(older.problems, []);
    await older.context.close();
    assert.deepEqual(problems, []);
  });

  test('an autoplaying embed keeps every key of its address', async () => {
    // A course page's frame: the app must not rewrite its address to the default page
    // while the run plays (a reload would then show the whole site instead of the embed).
    const url = `${h.url}#s=gc-pause&embed=1&autoplay=1`;
    const { context, page, problems } = await openApp(h.browser, url, undefined, undefined, {
      ready: 'section.diagram',
    });
    await until(
      async () => (await playback(page).button('Pause').count()) > 0,
      'the run to start playing',
    );
    const hash = await page.evaluate(() => location.hash);
    assert.match(hash, /embed=1/);
    assert.match(hash, /autoplay=1/);
    await page.reload();
    await page.locator('section.diagram').waitFor();
    assert.equal(
      await page.getByRole('combobox', { name: 'Scenario' }).count(),
      0,
      'still an embed after a reload (no site picker)',
    );
    assert.deepEqual(problems, []);
    await context.close();
  });

  test('a frame keeps embed mode on a mistake in its link, and takes the command line\'s fence words', async () => {
    // `fence=volatile` is a word the command line takes: it must open, as an embed.
    const good = `${h.url}#s=gc-pause&fence=volatile&embed=1`;
    const { context, page, problems } = await openApp(h.browser, good, undefined, undefined, {
      ready: 'section.diagram',
    });
    assert.equal(await page.getByRole('alert').count(), 0, 'no error for fence=volatile');
    assert.equal(await page.getByRole('combobox', { name: 'Scenario' }).count(), 0, 'an embed');
    assert.equal(await playback(page).button('Fencing: on').count(), 1, 'volatile is a monotone fence');
    // A beat that does not exist: the message shows inside the frame, and it stays a frame.
    await page.goto(`${h.url}#s=gc-pause&beat=9&embed=1`);
    await page.getByRole('alert').waitFor();
    assert.match(await page.getByRole('alert').innerText(), /beat/);
    assert.equal(await page.getByRole('combobox', { name: 'Scenario' }).count(), 0, 'still an embed');
    assert.deepEqual(problems, []);
    await context.close();
  });
});

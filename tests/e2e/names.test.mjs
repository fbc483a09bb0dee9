// End-to-end: one name per node, fixes by their titles, and the fencing primer. A learner
// who opens a lesson, a lock service's preset, a fix and the lesson menu
// reads "the lock service" and "storage" everywhere — never "Coordinator", "Lock", "DB" or
// "lock server" — and fixes by plain titles, never by slugs like "abort-on-loss"; the ⓘ
// beside the Fencing switch opens a short primer from the keyboard. The screenshot of the
// Redlock page with the primer open goes to target/e2e/names.png.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { SHOTS, harness, openApp, playback, until } from './lib.mjs';

const LAPTOP = { viewport: { width: 1366, height: 900 } };

/** Names the nodes went by before, and fix slugs: none may be read on the page. */
const RETIRED = [
  [/coordinator/i, 'coordinator'],
  [/\bCoord\./, 'Coord.'],
  [/\bDB\b/, 'DB'],
  [/\bLock\b(?! service)/, 'Lock (alone)'],
  [/lock server/i, 'lock server'],
  [/\bmonotone\b/, 'monotone'],
  [/superseded holder(?! \(a client whose)/, 'superseded holder, unexplained'],
  ...['abort-on-loss', 'fencing-and-key', 'stop-on-loss', 'idempotency-key', 'monotonic-expiry', 'zxid-fence', 'delayed-restart', 'after-check']
    .map((s) => [new RegExp(s), `the slug ${s}`]),
];

/** Everything the page shows as text: the body's rendered text, every SVG text (lane
 * titles, stage badges, marks) and every option of every select. */
async function visibleText(page) {
  return page.evaluate(() => [
    document.body.innerText,
    ...[...document.querySelectorAll('svg text')].map((t) => t.textContent),
    ...[...document.querySelectorAll('option')].map((o) => o.textContent),
  ].join('\n'));
}

/** The node names a screen reader announces (aria-labels): they follow the same rule. */
async function spokenNames(page) {
  return page.evaluate(() => [...document.querySelectorAll('[aria-label]')].map((e) => e.getAttribute('aria-label')).join('\n'));
}

/** The retired names on the page's lines — except a sources line, which quotes the titles
 * of the texts it cites as they were published ("Distributed Lock Assumptions"). */
function offences(text) {
  const lines = text.split('\n').filter((l) => !l.trim().startsWith('Sources:'));
  return RETIRED.flatMap(([re, what]) => lines.filter((l) => re.test(l)).map((l) => `${what}: ${l.trim().slice(0, 160)}`));
}

async function open(h, hash) {
  const r = await openApp(h.browser, `${h.url}${hash}`, LAPTOP);
  await r.page.locator('svg.timeline').first().waitFor();
  // The settings panel too: its fence select and its clock table name every node. A
  // player hands the page to the whole app to open it: wait for the panel's own controls,
  // so the keys pressed next reach the app that draws them.
  await r.page.locator('details.settings > summary').click();
  await r.page.locator('details.settings[open] select').first().waitFor();
  return r;
}

describe('one name per node, plain fix titles, and a fencing primer', () => {
  const h = harness();

  for (const hash of ['#s=gc-pause', '#s=partition-duplicate-effects', '#s=redlock-clock-jump', '#s=ttl-shorter-than-work/abort-on-loss', '#s=partition-duplicate-effects/fencing-and-key']) {
    test(`${hash} shows no retired node name and no fix slug`, async () => {
      const { context, page, problems } = await open(h, hash);
      try {
        // Play to the end, so the narration, the verdict and the walkthrough's last beat
        // (with its "Fix it" buttons) are all on screen.
        await page.keyboard.press('End');
        await until(async () => /End of run/.test(await page.locator('body').innerText()), 'the end of the run');
        const text = await visibleText(page);
        assert.deepEqual(offences(text), [], text.slice(0, 400));
        assert.deepEqual(offences(await spokenNames(page)).filter((o) => !o.startsWith('monotone')), []);
        // The names it does use.
        assert.match(text, /Lock service/);
        assert.match(text, /Storage/);
        if (hash === '#s=redlock-clock-jump') assert.match(text, /Lock service 5/);
        if (hash.includes('/abort-on-loss')) assert.match(text, /Narrows: Stop when the lock is lost/);
        if (hash.includes('/fencing-and-key')) assert.match(text, /Fix: Fencing plus an idempotency key/);
        assert.deepEqual(problems, []);
      } finally {
        await context.close();
      }
    });
  }

  test('the lesson menu names every fix by its title', async () => {
    const { context, page, problems } = await openApp(h.browser, `${h.url}#chapter=3`, LAPTOP);
    try {
      const menu = page.getByRole('navigation', { name: 'Lessons' });
      await menu.waitFor();
      const text = await menu.innerText();
      assert.deepEqual(offences(text), []);
      assert.match(text, /narrows: Stop when the lock is lost/);
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  });

  test('the fencing primer opens from beside the Fencing switch, by keyboard', async () => {
    const { context, page, problems } = await open(h, '#s=redlock-clock-jump');
    try {
      const { toolbar } = playback(page);
      const fence = toolbar.getByRole('button', { name: /^Fencing: (on|off)$/ });
      await fence.focus();
      await page.keyboard.press('Tab');
      const focused = await page.evaluate(() => {
        const e = document.activeElement;
        return { tag: e.tagName, name: e.textContent.trim(), title: e.getAttribute('title') };
      });
      assert.deepEqual(focused, { tag: 'SUMMARY', name: 'iWhat is a fencing token?', title: 'What is a fencing token?' });
      const primer = page.locator('.primer-text');
      assert.equal(await primer.isVisible(), false);
      await page.keyboard.press('Enter');
      await primer.waitFor({ state: 'visible' });
      const words = await primer.innerText();
      assert.match(words, /^A fencing token is a number/);
      assert.match(words, /Kleppmann 2016/);
      // It opens over the page beside the switch, inside the window.
      const [f, p] = [await fence.boundingBox(), await primer.boundingBox()];
      assert.ok(p.y >= f.y && p.y < f.y + 3 * f.height, `primer at y=${p.y}, switch at y=${f.y}`);
      assert.ok(p.x >= 0 && p.x + p.width <= LAPTOP.viewport.width, `primer x ${p.x}..${p.x + p.width}`);
      // The switch was not toggled by opening the primer.
      assert.equal(await fence.getAttribute('aria-pressed'), 'false');
      await page.screenshot({ path: join(SHOTS, 'names.png') });
      await page.keyboard.press('Enter');
      await primer.waitFor({ state: 'hidden' });
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  });

  // On a phone the ⓘ sits mid-row: a note placed from it ran 80 px past the right edge and
  // dragged the page sideways, cutting off the page's left side and the note's own words.
  for (const width of [360, 390]) {
    test(`the fencing primer opened on a ${width} px phone stays inside the window`, async () => {
      const { context, page, problems } = await openApp(h.browser, `${h.url}#s=gc-pause`, {
        viewport: { width, height: 800 },
      });
      try {
        await page.locator('svg.timeline').first().waitFor();
        await page.locator('details.primer > summary').click();
        const primer = page.locator('.primer-text');
        await primer.waitFor({ state: 'visible' });
        await primer.scrollIntoViewIfNeeded();
        const [i, p] = [await page.locator('details.primer > summary').boundingBox(), await primer.boundingBox()];
        const sideways = await page.evaluate(() => [scrollX, document.documentElement.scrollWidth, innerWidth]);
        await page.screenshot({ path: join(SHOTS, `names-primer-${width}.png`) });
        assert.ok(p.x >= 0 && p.x + p.width <= width, `primer x ${p.x}..${p.x + p.width} in a ${width} px window`);
        assert.equal(sideways[0], 0, `the page scrolled sideways by ${sideways[0]} px`);
        assert.ok(sideways[1] <= sideways[2], `the page is ${sideways[1]} px wide in a ${sideways[2]} px window`);
        // Just below the ⓘ that opened it.
        assert.ok(p.y >= i.y + i.height && p.y < i.y + i.height + 16, `primer at y=${p.y}, ⓘ ends at ${i.y + i.height}`);
        assert.deepEqual(problems, []);
      } finally {
        await context.close();
      }
    });
  }
});

// End-to-end: the diagram on a phone and its folded labels. At 360×740 the
// diagram is drawn at its box's width (one unit a CSS pixel): nothing scrolls sideways, its
// text is at least 11 px (a mark's glyph 10), and it is on the first screen with the Play
// button — on the default page (the first load) and in the whole app, zoomed too. At
// 320×568 the links' player (a lesson's and a question's link) and the whole app draw it
// at the box's width too, with the same text. A count of folded labels ("+3") is a
// keyboard-focusable button named by its text and its list, and focusing or clicking it
// lists those labels in the inspector. On a phone and a laptop, the diagram and Pause do
// not move while a run plays and its narration changes. Screenshots go to target/e2e/.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { SHOTS, harness, openApp, until, WAIT } from './lib.mjs';

const PHONE = { viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true };
const LAPTOP = { viewport: { width: 1280, height: 800 } };

/** What the phone's first screen shows of the diagram and the Play button. */
function fit(page) {
  return page.evaluate(() => {
    const box = document.querySelector('section.diagram:not(.versus)');
    const svg = box.querySelector('svg.timeline');
    const r = svg.getBoundingClientRect();
    const units = Number(svg.getAttribute('viewBox').split(/\s+/)[2]);
    // A text's size on screen: its font size in the drawing's units, scaled to its box.
    const small = [];
    for (const s of box.querySelectorAll('svg')) {
      const vb = Number(s.getAttribute('viewBox').split(/\s+/)[2]);
      const scale = s.getBoundingClientRect().width / vb;
      for (const t of s.querySelectorAll('text')) {
        if (!t.textContent.trim()) continue;
        // A mark's glyph (✓, ⚠, ❄) and a stacked mark's count are symbols inside its
        // circle, drawn at 10 px; every word at 11.
        const least = t.classList.contains('glyph') || t.classList.contains('mark-count') ? 9.95 : 10.95;
        const px = parseFloat(getComputedStyle(t).fontSize) * scale;
        if (px < least) small.push(`${t.textContent} ${px.toFixed(2)} px`);
      }
    }
    const play = document.querySelector('[role=toolbar][aria-label=Playback] button[aria-label=Play]').getBoundingClientRect();
    return {
      scrollWidth: box.scrollWidth,
      clientWidth: box.clientWidth,
      pageScrollWidth: document.documentElement.scrollWidth,
      units,
      top: r.top,
      bottom: r.bottom,
      playBottom: play.bottom,
      small,
    };
  });
}

/** `height`: the screen's, checked to hold the diagram and Play; none, not checked. */
function assertFits(f, what, { width, height } = PHONE.viewport) {
  assert.ok(f.scrollWidth <= f.clientWidth, `${what}: the diagram scrolls sideways (${f.scrollWidth} > ${f.clientWidth})`);
  assert.ok(f.pageScrollWidth <= width, `${what}: the page scrolls sideways (${f.pageScrollWidth})`);
  assert.ok(f.units <= width, `${what}: drawn ${f.units} units across, not at its box's width`);
  if (height) {
    assert.ok(f.top >= 0 && f.bottom <= height, `${what}: the diagram is not on the first screen (${f.top}–${f.bottom})`);
    assert.ok(f.playBottom <= height, `${what}: Play is below the first screen (${f.playBottom})`);
  }
  assert.deepEqual(f.small, [], `${what}: text under 11 px`);
}

describe('the diagram on a phone, and its folds', () => {
  const h = harness();

  test('at 360×740 the default page draws the diagram at the screen width', async () => {
    const { context, page, problems } = await openApp(h.browser, h.url, PHONE);
    try {
      await page.locator('#first-paint').waitFor({ state: 'detached', timeout: WAIT });
      const f = await until(async () => {
        const v = await fit(page);
        return v.units <= 360 && v;
      }, 'the drawing laid out for the phone');
      assertFits(f, 'the default page');
      await page.screenshot({ path: join(SHOTS, 'phone-diagram.png') });
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  });

  test('at 360×740 the whole app draws it at the screen width, zoomed too', async () => {
    for (const hash of ['#s=gc-pause&t=30000', '#s=gc-pause&z=20000-40000']) {
      const { context, page, problems } = await openApp(h.browser, `${h.url}${hash}`, PHONE);
      try {
        const f = await until(async () => {
          const v = await fit(page);
          return v.units <= 360 && v;
        }, `${hash}: the drawing laid out for the phone`);
        assertFits(f, hash);
        if (hash.includes('z=')) await page.screenshot({ path: join(SHOTS, 'phone-diagram-zoomed.png') });
        assert.deepEqual(problems, []);
      } finally {
        await context.close();
      }
    }
  });

  // While a run plays, its narration above the diagram changes length from sentence to
  // sentence; the diagram and Pause must not move under the reader's thumb, nor Pause slide
  // off the screen (the caption keeps room for four lines on a phone).
  test('on a phone and a laptop, the diagram and Pause stay where they are while a run plays', async () => {
    const PHONES = [PHONE, { ...PHONE, viewport: { width: 390, height: 844 } }, LAPTOP];
    for (const phone of PHONES) {
      const { width, height } = phone.viewport;
      for (const hash of ['', '#s=slow-client-clock']) {
        const { context, page, problems } = await openApp(h.browser, `${h.url}${hash}`, phone);
        try {
          await page.locator('#first-paint').waitFor({ state: 'detached', timeout: WAIT });
          const bar = page.getByRole('toolbar', { name: 'Playback' });
          const before = await bar.getByRole('button', { name: 'Play', exact: true }).boundingBox();
          await bar.getByRole('button', { name: 'Play', exact: true }).click();
          await bar.getByRole('button', { name: 'Pause', exact: true }).waitFor({ timeout: WAIT });
          // Every frame of the run, until it ends: where Pause and the diagram are.
          const seen = await page.evaluate(
            (limit) =>
              new Promise((done) => {
                // Each distinct place, by its words, with Pause's bottom edge.
                const places = new Map();
                const captions = new Set();
                const t0 = performance.now();
                const frame = () => {
                  const pause = document.querySelector('[role=toolbar][aria-label=Playback] button[aria-label=Pause]');
                  if (!pause || performance.now() - t0 > limit) return done({ places: [...places], captions: captions.size });
                  const p = pause.getBoundingClientRect();
                  const d = document.querySelector('svg.timeline').getBoundingClientRect();
                  places.set(`Pause ${Math.round(p.top)}–${Math.round(p.bottom)}, diagram from ${Math.round(d.top)}`, p.bottom);
                  captions.add(document.querySelector('.caption').textContent);
                  requestAnimationFrame(frame);
                };
                requestAnimationFrame(frame);
              }),
            WAIT,
          );
          const what = `${hash || 'the default page'} at ${width}×${height}`;
          assert.ok(seen.captions >= 4, `${what}: the narration changed as it played (${seen.captions} sentences)`);
          const words = seen.places.map(([w]) => w);
          assert.equal(seen.places.length, 1, `${what}: Pause or the diagram moved while playing: ${words.join('; ')}`);
          const [[place, bottom]] = seen.places;
          assert.ok(Math.round(bottom) <= height, `${what}: Pause is below the screen (${place})`);
          assert.ok(Math.abs(Math.round(bottom) - (before.y + before.height)) <= 1, `${what}: Pause is not where Play was (${place})`);
          if (!hash && width === 360) await page.screenshot({ path: join(SHOTS, 'phone-360-playing.png') });
          assert.deepEqual(problems, []);
        } finally {
          await context.close();
        }
      }
    }
  });

  // A 320 px phone's column is narrower than the first load's narrowest drawing (360
  // units, as its axis keeps every tick), which it scales down; the links' player and the
  // whole app thin their ticks and lay the drawing out at the column's own width.
  test("at 320×568 a lesson's, a question's and the whole app's diagram is drawn at the screen width", async () => {
    const SMALL = { viewport: { width: 320, height: 568 }, isMobile: true, hasTouch: true };
    for (const hash of ['#s=slow-client-clock', '#quiz=2', '#s=gc-pause&t=30000']) {
      const { context, page, problems } = await openApp(h.browser, `${h.url}${hash}`, SMALL);
      try {
        await page.locator('#first-paint').waitFor({ state: 'detached', timeout: WAIT });
        const f = await until(async () => {
          const v = await fit(page);
          return v.units <= 320 && v;
        }, `${hash}: the drawing laid out for the phone`);
        // (The page's header wraps to more lines at 320 px: what the first screen holds is
        // the 360 px test's business.)
        assertFits(f, hash, { width: 320 });
        if (hash === '#quiz=2') await page.screenshot({ path: join(SHOTS, 'phone-320-diagram.png') });
        assert.deepEqual(problems, []);
      } finally {
        await context.close();
      }
    }
  });

  test('the diagram is drawn at its box width from its first frame, never at the usual width first', async () => {
    // Every width the page's timeline is drawn at, as each drawing reaches the page (a
    // mutation observer's callback runs before the frame is painted).
    const record = (context) =>
      context.addInitScript(() => {
        window.__widths = [];
        new MutationObserver(() => {
          const svg = document.querySelector('section.diagram:not(.versus) svg.timeline');
          const w = svg?.getAttribute('viewBox').split(/\s+/)[2];
          if (w && window.__widths.at(-1) !== w) window.__widths.push(w);
        }).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['viewBox'] });
      });
    const cases = [
      ['the default page at 1280×800', '', LAPTOP],
      ['the default page at 360×740', '', PHONE],
      ['the whole app at 1280×800', '#s=gc-pause&t=30000', LAPTOP],
    ];
    for (const [what, hash, options] of cases) {
      const { context, page, problems } = await openApp(h.browser, `${h.url}${hash}`, options, record);
      try {
        await page.locator('section.diagram svg.timeline').waitFor();
        await page.waitForTimeout(300);
        const [widths, box] = await page.evaluate(() => [
          window.__widths,
          document.querySelector('section.diagram:not(.versus)').clientWidth,
        ]);
        // Its box's width (below the usual 960 units): the one drawing, from the first.
        assert.deepEqual(widths, [`${Math.min(box, 960)}.0`], `${what}: drawn at ${widths.join(', then ')} in a ${box} px box`);
        assert.deepEqual(problems, []);
      } finally {
        await context.close();
      }
    }
  });

  test('a fold of labels is a named button whose list shows in the inspector', async () => {
    const { context, page, problems } = await openApp(h.browser, `${h.url}#s=eight-clients`, LAPTOP);
    try {
      await page.locator('body').focus();
      await page.keyboard.press('End');
      const folds = page.locator('section.diagram:not(.versus) svg.timeline g.fold');
      await until(async () => (await folds.count()) > 0, 'a fold on the diagram');
      const fold = folds.first();
      const text = (await fold.locator('text').textContent()).trim();
      const n = Number(text.replace('+', ''));
      assert.match(text, /^\+\d+$/);
      // A button, in the tab order, whose name begins with what it shows.
      assert.equal(await fold.getAttribute('role'), 'button');
      assert.equal(await fold.getAttribute('tabindex'), '0');
      const name = await fold.getAttribute('aria-label');
      assert.ok(name.startsWith(`${text}: ${n} more here: `), name);
      const listed = name.slice(`${text}: ${n} more here: `.length).split('; ');
      assert.equal(listed.length, n);
      // Focus (as Tab would) lists the labels in the inspector.
      await fold.focus();
      const inspector = page.getByRole('region', { name: 'Inspector' });
      const items = inspector.locator('.folded li');
      await until(async () => (await items.count()) === n, 'the fold listed in the inspector');
      assert.deepEqual(await items.allTextContents(), listed);
      await inspector.scrollIntoViewIfNeeded();
      await page.screenshot({ path: join(SHOTS, 'fold-inspector.png') });
      // Enter on it keeps it listed; a click on another fold lists that one instead.
      await page.keyboard.press('Enter');
      assert.equal(await items.count(), n);
      if ((await folds.count()) > 1) {
        const other = folds.nth(1);
        const m = Number((await other.locator('text').textContent()).trim().replace('+', ''));
        await other.dispatchEvent('click');
        await until(async () => (await items.count()) === m, 'the other fold listed');
      }
      // A new drawing (a zoom) has new folds: the list goes.
      await page.locator('body').focus();
      await page.keyboard.press('+');
      await until(async () => (await items.count()) === 0, 'the list gone with the drawing');
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  });

  test('a mark drawn for several events lists them in the inspector, from their moment', async () => {
    // Lock service 3's clock jumps at the moment client 1's lease expires there: one mark.
    const { context, page, problems } = await openApp(h.browser, `${h.url}#s=redlock-clock-jump`, LAPTOP);
    try {
      await page.locator('body').focus();
      await page.keyboard.press('End');
      const stacks = page.locator('section.diagram:not(.versus) svg.timeline g.mark[data-stack]');
      await until(async () => (await stacks.count()) > 0, 'a stacked mark on the diagram');
      // (The last: the first ones are cuts at 0 s, listed from the start.)
      const mark = stacks.last();
      const n = Number((await mark.locator('text.mark-count').textContent()).trim());
      assert.ok(n > 1, `its count (${n})`);
      const title = (await mark.locator('circle title').textContent()).split('\n');
      assert.equal(title[0], `${n} events here:`);
      await mark.dispatchEvent('click');
      const inspector = page.getByRole('region', { name: 'Inspector' });
      const items = inspector.locator('.folded li');
      await until(async () => (await items.count()) === n, 'the stacked events listed in the inspector');
      assert.equal((await inspector.locator('.folded h3').textContent()).trim(), `${n} events at one spot`);
      assert.deepEqual(await items.allTextContents(), title.slice(1));
      // The click went to the last of them: the mark is still drawn, its list shown.
      const edge = Number(await page.locator('svg.timeline #reveal rect').getAttribute('width'));
      const x = await mark.locator('circle').evaluate((c) => c.getBBox().x);
      assert.ok(x < edge, `the mark (x ${x}) inside the reveal (edge ${edge})`);
      await inspector.scrollIntoViewIfNeeded();
      await page.screenshot({ path: join(SHOTS, 'stack-inspector.png') });
      // Back to the start: the list is not shown before its moment.
      await page.locator('body').focus();
      await page.keyboard.press('Home');
      await until(async () => (await items.count()) === 0, 'the list hidden before its moment');
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  });
});

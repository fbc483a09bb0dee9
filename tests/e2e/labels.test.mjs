// End-to-end: no two words of the space-time diagram overprint. Every
// built-in scenario (the presets of the picker, every lesson and lock-service preset of the
// Lessons menu, and each lesson's fixes) is opened, played to its end, and every visible
// text of the diagram and of the stage is measured where Chromium drew it (getBBox, in the
// drawing's units): no two may overlap — labels, glyphs (marks at one spot are drawn as
// one, with a count), counts, and the stage's names, tokens and clock readings — at a
// laptop's size and a phone's. Screenshots of the two crowded runs, at both sizes, go to
// target/e2e/.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { SHOTS, digestOf, harness, openApp, until } from './lib.mjs';

const LAPTOP = { viewport: { width: 1280, height: 800 } };
const PHONE = { viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true };

/** The overlapping pairs of visible texts in the main diagram (labels, glyphs, counts)
 * and on the stage (names, tokens, clock readings), described. */
async function overlaps(page) {
  return page.evaluate(() => {
    const out = [];
    let texts = 0;
    for (const sel of ['section.diagram:not(.versus) svg.timeline', 'svg.stage']) {
      const svg = document.querySelector(sel);
      if (!svg) continue;
      const boxes = [];
      for (const t of svg.querySelectorAll('text')) {
        // The hover's clock readings come and go with the pointer; the cursor's copies of the
        // labels it crosses (clipped to beyond the edge) repeat a label of the body at the
        // same spot. (The labels drawn whole over the body, `.across.whole`, are in no body.)
        if (t.closest('.hover, [clip-path="url(#across)"], [visibility="hidden"]')) continue;
        if (!t.textContent.trim() || getComputedStyle(t).display === 'none') continue;
        const b = t.getBBox();
        if (b.width === 0 || b.height === 0) continue;
        boxes.push({ x0: b.x, y0: b.y, x1: b.x + b.width, y1: b.y + b.height, text: t.textContent });
      }
      texts += boxes.length;
      // Half a unit of antialiasing is not an overlap.
      const e = 0.5;
      for (let i = 0; i < boxes.length; i++) {
        for (let j = i + 1; j < boxes.length; j++) {
          const [a, b] = [boxes[i], boxes[j]];
          if (a.x0 < b.x1 - e && b.x0 < a.x1 - e && a.y0 < b.y1 - e && b.y0 < a.y1 - e) {
            const r = (v) => `${v.text} [${v.x0.toFixed(1)},${v.y0.toFixed(1)} ${v.x1.toFixed(1)},${v.y1.toFixed(1)}]`;
            out.push(`${sel.includes('stage') ? 'stage: ' : ''}${r(a)} × ${r(b)}`);
          }
        }
      }
    }
    return { texts, overlaps: out };
  });
}

/** Plays the run on screen to its end (the End key) and waits for the cursor to get there. */
async function toEnd(page) {
  await page.locator('body').focus();
  await page.keyboard.press('End');
  const slider = page.getByRole('toolbar', { name: 'Playback' }).getByRole('slider', { name: 'Time' });
  await until(async () => (await slider.inputValue()) === (await slider.getAttribute('max')), 'the end of the run');
}

/**
 * Opens `hash` by navigating to it, waiting for its run to replace the one on screen; a run
 * that draws the same as the one before (the same digest) is loaded afresh instead.
 */
async function open(page, url, hash) {
  const before = await digestOf(page);
  await page.goto(`${url}${hash}`);
  await page.getByRole('banner').waitFor();
  const changed = async () => {
    const d = await digestOf(page);
    return d && d !== before;
  };
  try {
    await until(changed, `${hash} to load`, { timeout: 3_000 });
  } catch {
    await page.reload();
    await page.getByRole('banner').waitFor();
    await until(() => digestOf(page), `${hash} to load afresh`);
  }
}

describe('diagram labels', () => {
  const h = harness();

  for (const [size, options] of [['1280x800', LAPTOP], ['390x844', { ...PHONE, viewport: { width: 390, height: 844 } }]]) test(`no two texts of the diagram or the stage overlap at the end of any built-in run (${size})`, async () => {
    const { context, page, problems } = await openApp(h.browser, h.url, options);
    try {
      // Every name: the picker's presets, then the Lessons menu's lessons and services.
      const names = await page.locator('select[aria-label="Scenario"] option').evaluateAll((os) => os.map((o) => o.value));
      await page.getByRole('button', { name: 'Lessons', exact: true }).click();
      const menu = page.getByRole('navigation', { name: 'Lessons' });
      await menu.waitFor();
      const links = await menu.getByRole('link').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
      for (const href of links) {
        const m = href && href.match(/#s=([^&]+)$/);
        if (m && !names.includes(m[1])) names.push(m[1]);
      }
      assert.ok(names.length >= 30, `${names.length} scenarios: ${names}`);
      const bad = [];
      let runs = 0;
      let texts = 0;
      const measure = async (name) => {
        await toEnd(page);
        const r = await overlaps(page);
        runs += 1;
        texts += r.texts;
        if (r.overlaps.length) bad.push(`${name}: ${r.overlaps.length} overlaps, e.g. ${r.overlaps.slice(0, 3).join('; ')}`);
      };
      for (const name of names) {
        await open(page, h.url, `#s=${name}`);
        await measure(name);
        // Each of its fixes, by the button that applies it (offered at the end of the run).
        const fixes = page.getByRole('button', { name: /^(Fix it|Narrow it|Compare): / });
        const count = await fixes.count();
        for (let k = 0; k < count; k++) {
          const before = await digestOf(page);
          const title = await fixes.nth(k).innerText();
          await fixes.nth(k).click();
          await until(async () => (await digestOf(page)) !== before, `${name}: ${title}`);
          await measure(`${name} → ${title}`);
          // Back to the lesson, at its end, where its fixes are offered.
          await open(page, h.url, `#s=${name}`);
          await toEnd(page);
        }
      }
      console.log(`labels (${size}): ${runs} runs, ${texts} texts measured, ${bad.length} with overlaps`);
      assert.ok(runs >= 50, `${runs} runs`);
      assert.deepEqual(bad, []);
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  });

  for (const [size, options] of [['1280x800', LAPTOP], ['360x740', PHONE]]) {
    test(`redlock-clock-jump and eight-clients read cleanly at ${size}`, async () => {
      const { context, page, problems } = await openApp(h.browser, h.url, options);
      try {
        for (const name of ['redlock-clock-jump', 'eight-clients']) {
          await open(page, h.url, `#s=${name}`);
          await toEnd(page);
          const r = await overlaps(page);
          assert.deepEqual(r.overlaps, [], name);
          const diagram = page.locator('section.diagram:not(.versus)');
          await diagram.scrollIntoViewIfNeeded();
          await page.screenshot({ path: join(SHOTS, `labels-${name}-${size}.png`) });
          await diagram.screenshot({ path: join(SHOTS, `labels-${name}-${size}-diagram.png`) });
        }
        assert.deepEqual(problems, []);
      } finally {
        await context.close();
      }
    });
  }
});

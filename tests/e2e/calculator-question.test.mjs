// End-to-end: a reader's question answered from the page alone — "TTL 10 s, pauses up to
// 8 s, drift 1000 ppm, delay 50 ms, work 2 s: safe? what makes it safe?". The reader types
// those numbers into the safety calculator (the work W is a field like the others), reads
// the verdict, which says whether the numbers give an overlap (two believers) and whether
// they give damage (a stale write accepted), and what would make it safe; tries the fixes
// it names (a fence, shorter pauses) and sees the verdict change; types a bad value and is
// told which field, keeping the rest; then opens the worst case and finds the diagram in
// view with the cursor where the two-believers band starts. On a laptop and on a phone
// (with reduced motion), screenshots of both. No console error.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { SHOTS, harness, openApp, until } from './lib.mjs';

const SCREENS = [
  ['laptop', { viewport: { width: 1280, height: 800 } }],
  ['phone', { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, reducedMotion: 'reduce' }],
];

/** The question, as field labels and values. */
const QUESTION = [
  ['TTL (ms)', '10000'],
  ['Longest pause P (ms)', '8000'],
  ['Largest clock drift ρ (ppm)', '1000'],
  ['Longest one-way delay D (ms)', '50'],
  ['Work before the write W (ms)', '2000'],
];

/** Whether `locator`'s box lies inside the viewport (wholly, or at least its top `part` px). */
async function inViewport(locator, part = Infinity) {
  return locator.evaluate((el, part) => {
    const r = el.getBoundingClientRect();
    const bottom = Math.min(r.bottom, r.top + part);
    return r.width > 0 && r.top >= -1 && r.left >= -1 && bottom <= innerHeight + 1 && r.right <= innerWidth + 1;
  }, part);
}

/** Every text in `root` drawn smaller than 10 px, as "size: text". */
async function smallText(root) {
  return root.evaluate((el) => {
    const out = [];
    for (const e of el.querySelectorAll('*')) {
      const own = [...e.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
      const size = parseFloat(getComputedStyle(e).fontSize);
      if (own && e.getClientRects().length && size < 10) out.push(`${size}: ${e.textContent.trim().slice(0, 40)}`);
    }
    return out;
  });
}

describe('a question asked of the safety calculator', () => {
  const h = harness();

  for (const [screen, options] of SCREENS) {
    test(`is answered from the page, and its worst case opens in view (${screen})`, async () => {
      const { context, page, problems } = await openApp(h.browser, h.url, options);
      try {
        await page.locator('details.panel.calculator > summary').click();
        const panel = page.locator('details.panel.calculator[open]');
        const verdict = panel.locator('p.calc-verdict');
        await verdict.waitFor();

        // Every field and select has an accessible name; the work and the fence start from
        // the scenario on screen (gc-pause: 10 s of work, no fence).
        const work = panel.getByLabel('Work before the write W (ms)', { exact: true });
        assert.equal(await work.inputValue(), '10000');
        const fence = panel.getByLabel('Fence at storage', { exact: true });
        assert.equal(await fence.inputValue(), 'none');
        const unnamed = await panel.evaluate((el) =>
          [...el.querySelectorAll('input, select, button')]
            .filter((c) => !(c.labels?.length || c.getAttribute('aria-label') || c.textContent.trim()))
            .map((c) => c.outerHTML.slice(0, 80)),
        );
        assert.deepEqual(unnamed, [], 'every control is named');

        // The question.
        for (const [label, value] of QUESTION) await panel.getByLabel(label, { exact: true }).fill(value);
        await until(async () => /^Unsafe: overlap up to/.test(await verdict.innerText()), 'the verdict for the question');

        // Safe? The verdict says which of overlap and damage the numbers give.
        const said = await verdict.innerText();
        const m = /^Unsafe: overlap up to ([\d.]+) s, and damage is possible\.$/.exec(said);
        assert.ok(m, `overlap and damage, both: ${said}`);
        const stated = Number(await verdict.getAttribute('data-overlap-ms'));
        assert.equal(Math.round(Number(m[1]) * 1000), stated, 'the figure read is the one computed');
        assert.ok(stated > 0 && stated < 1000, `an overlap under a second: ${stated} ms`);
        // The two are named and told apart beside it.
        const meaning = panel.locator('dl.calc-meaning');
        assert.deepEqual(await meaning.locator('dt').allInnerTexts(), ['Overlap', 'Damage']);
        const [overlap, damage] = await meaning.locator('dd').allInnerTexts();
        assert.match(overlap, /^A window of time when two clients both believe they hold the lock\./);
        assert.match(overlap, /Up to [\d.]+ s here/);
        assert.match(damage, /^A stale write that storage accepts.*depends on the fence\./);
        assert.match(damage, /Possible here: the old holder's write can reach storage up to [\d.]+ s after/);
        // No command-line flag anywhere in the panel.
        assert.doesNotMatch(await panel.innerText(), /(^|\s)--[a-z]/);

        // What makes it safe: the page names a fence and a pause bound; each, tried, does.
        const advice = await panel.locator('p.calc-advice').innerText();
        assert.match(advice, /^What would make it safe:/);
        assert.match(advice, /A fence at storage set to “Reject lower tokens”/);
        const allowed = /pauses of ≤ (\d+) ms make it safe/.exec(advice);
        assert.ok(allowed, `a pause bound that makes it safe: ${advice}`);
        assert.ok(Number(allowed[1]) < 8000);
        await fence.selectOption({ label: 'Reject lower tokens' });
        await until(async () => /^Safe from damage: overlap up to [\d.]+ s, but the fence refuses the late write\.$/.test(await verdict.innerText()), 'safe with a fence');
        assert.match((await meaning.locator('dd').allInnerTexts())[1], /None here: storage checks the lock's ordered token/);
        await fence.selectOption('none');
        const pause = panel.getByLabel('Longest pause P (ms)', { exact: true });
        await pause.fill(allowed[1]);
        await until(async () => (await verdict.innerText()) === 'Safe: no overlap, so no damage.', 'safe with shorter pauses');
        await pause.fill('8000');
        await until(async () => Number(await verdict.getAttribute('data-overlap-ms')) === stated, 'the question again');

        // A bad value: refused at its field, named, and the other values kept.
        await work.fill('-5');
        await panel.getByText('Work W: must be 0 or more').waitFor();
        assert.equal(await work.getAttribute('aria-invalid'), 'true');
        assert.equal(await verdict.count(), 0);
        for (const [label, value] of QUESTION.slice(0, 4)) {
          assert.equal(await panel.getByLabel(label, { exact: true }).inputValue(), value, `${label} kept`);
        }
        await work.fill('2000');
        await until(async () => Number(await verdict.getAttribute('data-overlap-ms')) === stated, 'the answer back');

        // Nothing in the panel is clipped or too small to read, and the page does not
        // scroll sideways.
        assert.deepEqual(await smallText(panel), [], 'text of at least 10 px');
        const overflow = await page.evaluate(() => ({
          page: document.documentElement.scrollWidth - innerWidth,
          panel: [...document.querySelectorAll('details.panel.calculator *')]
            .filter((e) => e.scrollWidth > e.clientWidth + 1 && getComputedStyle(e).overflowX === 'hidden')
            .map((e) => e.className),
        }));
        assert.ok(overflow.page <= 0, `no sideways scroll: ${overflow.page} px`);
        assert.deepEqual(overflow.panel, [], 'nothing cut off');
        // A select shows its whole choice (a native select cuts a long one short silently).
        const cut = await panel.evaluate((el) => {
          const ctx = document.createElement('canvas').getContext('2d');
          return [...el.querySelectorAll('select')]
            .filter((s) => {
              const st = getComputedStyle(s);
              ctx.font = `${st.fontWeight} ${st.fontSize} ${st.fontFamily}`;
              return ctx.measureText(s.selectedOptions[0].textContent).width > s.clientWidth - 24;
            })
            .map((s) => `${s.id}: ${s.selectedOptions[0].textContent} in ${s.clientWidth} px`);
        });
        assert.deepEqual(cut, [], 'every select shows its whole choice');
        await verdict.scrollIntoViewIfNeeded();
        await page.screenshot({ path: join(SHOTS, `calculator-question-${screen}.png`) });
        await panel.screenshot({ path: join(SHOTS, `calculator-question-${screen}-panel.png`) });

        // The worst case: the reader is scrolled at the calculator, far below the diagram.
        const diagram = page.locator('section.diagram').first();
        assert.equal(await inViewport(diagram, 100), false, 'the diagram is out of view before');
        await panel.getByRole('button', { name: 'Show me the worst case' }).click();
        await until(async () => Number(await diagram.getAttribute('data-overlap-ms')) === stated, `a run whose two clients both believe for ${stated} ms`);
        await until(() => inViewport(diagram, 100), 'the diagram scrolled into view');
        // The cursor is where the two-believers band starts, and the band's tag shows there.
        const svg = diagram.locator('svg.timeline');
        const at = await svg.evaluate((s) => {
          const r = s.querySelector('g.band rect');
          const c = s.querySelector('line.cursor');
          // Each tick in ms of true time (the axis's unit follows the window: ms, s, min, h).
          const UNIT = { ms: 1, s: 1000, min: 60_000, h: 3_600_000 };
          const ticks = [...s.querySelectorAll('.axis text')]
            .map((t) => [/^([\d.]+)\s*(ms|s|min|h)$/.exec(t.textContent.trim()), Number(t.getAttribute('x'))])
            .filter(([m]) => m)
            .map(([m, x]) => [Number(m[1]) * UNIT[m[2]], x]);
          return { band: Number(r.getAttribute('x')), cursor: Number(c.getAttribute('x1')), ticks, width: s.viewBox.baseVal.width, px: s.getBoundingClientRect().width };
        });
        const [[s0, a], [s1, b]] = [at.ticks[0], at.ticks[at.ticks.length - 1]];
        const unit = (s1 - s0) / (b - a);
        assert.ok(Math.abs(at.cursor - at.band) <= 1, `the cursor at the band's start: ${JSON.stringify(at)}`);
        const cursorMs = Number(await page.getByRole('toolbar', { name: 'Playback' }).getByRole('slider', { name: 'Time' }).inputValue());
        const bandMs = s0 + ((at.band - a) * (s1 - s0)) / (b - a);
        assert.ok(Math.abs(cursorMs - bandMs) <= unit, `cursor ${cursorMs} ms, band from ${bandMs} ms (± ${unit})`);
        const tag = svg.locator('text', { hasText: 'two believers' }).first();
        assert.ok(await inViewport(tag), 'the two-believers tag is in view');
        // The reader's numbers are still the question that run answers.
        assert.equal(await work.inputValue(), '2000');
        assert.equal(Number(await verdict.getAttribute('data-overlap-ms')), stated);
        await page.screenshot({ path: join(SHOTS, `calculator-question-${screen}-worst.png`) });
        assert.deepEqual(problems, []);
      } finally {
        await context.close();
      }
    });
  }
});

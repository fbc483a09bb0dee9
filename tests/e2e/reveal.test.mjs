// End-to-end: nothing before its time. At every stop of every interview question, before
// the answer, nothing a reader can see on the page names the outcome: not the diagram's
// words (read as drawn — a text inside the reveal's clip counts only if some of it lies
// left of the clip's edge, a count of folded labels only if it is shown), not the page's
// other text (every visible text node outside the drawings), not the overview strip
// (clipped at the cursor), nor the hover text of any shape the reveal shows a part of (a
// lease still held names its start, not its end); and a screen reader hears none of it
// either (the accessibility tree holds no shape or word of the drawing past the reveal). Checked on a laptop (1280×800) and a phone (390×844), where the
// question must also be in view when the run stops at it. Screenshots of each stop go to
// target/e2e/reveal-*.png.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { SHOTS, harness, openApp, until, WAIT } from './lib.mjs';

// What each stop's answer is, in the words the page would draw once it has happened
// (the diagram's labels for that moment and what follows from it). Any of these seen
// before the answer gives it away.
const STOPS = [
  { quiz: 1, stop: 0, outcome: /exp(ired)? 33|c2 · (token )?34|believes token 34|token 34/ },
  { quiz: 1, stop: 1, outcome: /STALE 33|✕ token 33|33 ✓|token 33 < 34/ },
  { quiz: 2, stop: 0, outcome: /exp(ired)? 33|c2 · (token )?34|34 ✓|STALE/ },
  { quiz: 3, stop: 0, outcome: /again|⚠/ },
  { quiz: 3, stop: 1, outcome: /aborted|again/ },
  { quiz: 4, stop: 0, outcome: /fails open|no token ✓/ },
  { quiz: 5, stop: 0, outcome: /✕ token 33|token 33 < 34|STALE|33 ✓/ },
];

const SIZES = [
  { name: 'laptop', viewport: { width: 1280, height: 800 } },
  { name: 'phone', viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true },
];

/** The moments (ms) a hover text names: each "12.345s" in it, but amounts ("+20.000s"). */
function namedMoments(text) {
  return [...text.matchAll(/(^|[^\d.+\-−])(\d+\.\d{3})s/g)].map((m) => Number(m[2]) * 1000);
}

/** The cursor's time (ms) and the hover texts of the shapes the diagram's reveal shows. */
function hoverTexts() {
  const timeline = document.querySelector('svg.timeline');
  if (!timeline) return { cursor: Infinity, unit: 0, titles: [] };
  const m = /cursor at (\d+\.\d{3})s/.exec(timeline.getAttribute('aria-label'));
  const rect = timeline.querySelector('#reveal rect');
  const edge = rect ? Number(rect.getAttribute('width')) : Infinity;
  const titles = [];
  for (const t of timeline.querySelectorAll('title')) {
    const shape = t.parentElement;
    if (shape.closest('[visibility="hidden"]')) continue;
    if (shape.closest('[clip-path="url(#reveal)"]') && shape.getBBox().x >= edge) continue;
    titles.push(t.textContent);
  }
  // A unit of the drawing in ms: the run's length over the drawing's width.
  const end = Number(document.querySelector('input.scrubber')?.max ?? 0);
  const unit = end / timeline.viewBox.baseVal.width;
  return { cursor: m ? Number(m[1]) * 1000 : Infinity, unit, titles };
}

/** Every text a reader can see: the drawings' as drawn, and the rest of the page's. */
function seenTexts() {
  const out = [];
  const timeline = document.querySelector('svg.timeline');
  if (timeline) {
    const rect = timeline.querySelector('#reveal rect');
    const edge = rect ? Number(rect.getAttribute('width')) : Infinity;
    for (const t of timeline.querySelectorAll('text')) {
      if (t.closest('[visibility="hidden"]')) continue;
      const clipped = t.closest('[clip-path="url(#reveal)"]');
      if (clipped && t.getBBox().x >= edge) continue;
      const across = t.closest('[clip-path="url(#across)"]');
      if (across) {
        const a = timeline.querySelector('#across rect');
        const from = Number(a.getAttribute('x'));
        const b = t.getBBox();
        if (b.x + b.width <= from) continue;
      }
      out.push(t.textContent);
    }
  }
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const el = n.parentElement;
    if (!el || el.closest('svg') || !n.textContent.trim()) continue;
    // The question's own panel states the choices, which name every outcome.
    if (el.closest('section.quiz')) continue;
    if (el.closest('option')) {
      // A closed select shows its chosen option only.
      if (!el.closest('option').selected) continue;
    } else if (!el.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true })) continue;
    out.push(n.textContent.trim());
  }
  return out;
}

/**
 * What a screen reader can read of the diagram: the name of every node of the page's
 * accessibility tree (Chromium's, through the DevTools protocol) that is a shape or a text
 * inside the timeline's drawing. The reveal's clip hides the rest of the run from the eye
 * only; this is what the page exposes to a reader who cannot see it (and to the page's find).
 */
async function heard(page) {
  const cdp = await page.context().newCDPSession(page);
  try {
    const { nodes } = await cdp.send('Accessibility.getFullAXTree');
    const out = [];
    for (const n of nodes) {
      if (n.ignored || !n.name?.value || n.backendDOMNodeId == null) continue;
      if (!['graphics-symbol', 'StaticText'].includes(n.role?.value)) continue;
      const { object } = await cdp.send('DOM.resolveNode', { backendNodeId: n.backendDOMNodeId });
      const { result } = await cdp.send('Runtime.callFunctionOn', {
        objectId: object.objectId,
        functionDeclaration: 'function () { const e = this.nodeType === 1 ? this : this.parentElement; return !!e?.closest("svg.timeline"); }',
        returnByValue: true,
      });
      if (result.value) out.push({ role: n.role.value, name: n.name.value });
    }
    return out;
  } finally {
    await cdp.detach();
  }
}

describe('nothing before its time', () => {
  const h = harness();

  for (const size of SIZES) {
    test(`every question's stops give nothing away before the answer (${size.name})`, async () => {
      const { viewport, ...rest } = size;
      for (const quiz of [1, 2, 3, 4, 5]) {
        const { context, page, problems } = await openApp(h.browser, `${h.url}#quiz=${quiz}`, { viewport, ...rest });
        try {
          const panel = page.locator('section.quiz');
          const choices = panel.getByRole('group', { name: 'Your prediction' });
          await panel.getByRole('button', { name: 'Skip to the stop' }).first().click();
          for (const s of STOPS.filter((s) => s.quiz === quiz)) {
            await choices.waitFor({ timeout: WAIT });
            // The stop's question is what the reader sees, on a phone too.
            const box = await choices.boundingBox();
            assert.ok(box && box.y >= 0 && box.y < viewport.height, `question ${quiz} stop ${s.stop}: the choices are in view (${box && box.y})`);
            const seen = await page.evaluate(seenTexts);
            const leaks = seen.filter((t) => s.outcome.test(t));
            await page.screenshot({ path: join(SHOTS, `reveal-q${quiz}-s${s.stop}-${size.name}.png`), fullPage: true });
            assert.deepEqual(leaks, [], `question ${quiz} stop ${s.stop} (${size.name}) shows its outcome before the answer`);
            const { cursor, unit, titles } = await page.evaluate(hoverTexts);
            assert.ok(titles.length > 0, `question ${quiz} stop ${s.stop}: hover texts read`);
            // (A unit of slack: the reveal's edge is half a unit past the cursor.)
            const later = titles.filter((t) => namedMoments(t).some((ms) => ms > cursor + unit + 1));
            assert.deepEqual(later, [], `question ${quiz} stop ${s.stop} (${size.name}): hover texts tell of later moments (cursor ${cursor} ms)`);
            // Nor is it heard: no shape or word of the drawing the reveal has not reached
            // is in the accessibility tree.
            const spoken = await heard(page);
            assert.ok(spoken.some((n) => n.role === 'graphics-symbol'), `question ${quiz} stop ${s.stop}: shapes heard`);
            const told = spoken.filter((n) => s.outcome.test(n.name) || (n.role === 'graphics-symbol' && namedMoments(n.name).some((ms) => ms > cursor + unit + 1)));
            assert.deepEqual(told, [], `question ${quiz} stop ${s.stop} (${size.name}): a screen reader hears the outcome or later moments (cursor ${cursor} ms)`);
            // Any answer, then on to the next stop (or the end).
            await choices.getByRole('button').first().click();
            await panel.getByRole('button', { name: 'Play on' }).click();
            await until(async () => /Right\.|Not quite\./.test(await panel.innerText()), 'the reveal');
            const next = panel.getByRole('button', { name: 'Next stop' });
            if (STOPS.some((o) => o.quiz === quiz && o.stop === s.stop + 1)) {
              await next.waitFor({ timeout: WAIT });
              await next.click();
            }
          }
          assert.deepEqual(problems, []);
        } finally {
          await context.close();
        }
      }
    });
  }
});

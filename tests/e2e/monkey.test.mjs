// End-to-end: a seeded "monkey" plays with the page the way a curious learner might —
// random clicks on whatever control is visible and enabled, random values typed into every
// field (numbers, junk, JSON fragments), random keyboard shortcuts, random menu entries —
// and the app must never panic, log a console error or lose its diagram. The seed fixes
// every choice; playback runs in real time, so what is on screen when a choice is made can
// still differ between runs — the last actions are printed with a failure (MONKEY_LOG=1
// prints them all). Some presses miss (a control gone by the time it is pressed, or one
// link's hit line under another's), so the test asks that most land, not all.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { digestOf, harness, openApp } from './lib.mjs';

/** mulberry32: a tiny seeded PRNG, so every run presses the same things in the same order. */
function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const JUNK = ['', '0', '-1', '1e9', '99999999999999999999', 'abc', '3.5', ' 12 ', '[]', '{}',
  '[{"at_ms": 1000, "pause": {"client": 1, "for_ms": 5000}}]', '[{"kind":"x"}]', 'null', '"',
  '{"version":1}', '🙂', '1000'];
const KEYS = ['Space', 'ArrowLeft', 'ArrowRight', 'Shift+ArrowLeft', 'Shift+ArrowRight', 'Home',
  'End', '[', ']', 'Control+z', 'Control+Shift+Z', 'Escape', 'Tab', 'Enter'];
/** Controls that download or copy: they leave the page's world, so the monkey leaves them. */
const AWAY = /Download|Copy|PNG|SVG|Mermaid|JSON/;

/** The visible, enabled controls, marked `data-monkey=i` in one round trip. */
function controls(page) {
  return page.evaluate(() => {
    for (const old of document.querySelectorAll('[data-monkey]')) delete old.dataset.monkey;
    const sel = 'button:not([disabled]), summary, select:not([disabled]), input:not([disabled]), ' +
      'textarea:not([disabled]), svg.stage g[role=button], a[href^="#"]';
    return [...document.querySelectorAll(sel)]
      // checkVisibility, not client rects: the inside of a closed <details> still has rects.
      .filter((e) => e.checkVisibility({ visibilityProperty: true, contentVisibilityAuto: true }))
      .map((e, i) => {
        e.dataset.monkey = String(i);
        const label = (e.getAttribute('aria-label') || e.textContent || e.getAttribute('name') || '').trim();
        return { i, tag: e.tagName.toLowerCase(), type: e.getAttribute('type') ?? '', label: label.slice(0, 40) };
      });
  });
}

/** What the monkey last reached for, so a miss can say what it missed. */
let last = '';

/** One random action on the page; returns a line for the log. */
async function act(page, rnd) {
  const pick = (xs) => xs[Math.floor(rnd() * xs.length)];
  if (rnd() < 0.15) {
    const key = pick(KEYS);
    await page.keyboard.press(key);
    return `key ${key}`;
  }
  const found = await controls(page);
  if (found.length === 0) return 'nothing to press';
  const { i, tag, type, label } = pick(found);
  const what = `${tag}[${label}]`;
  const el = page.locator(`[data-monkey="${i}"]`);
  last = what;
  if (tag === 'button' && AWAY.test(label)) return `skip ${what}`;
  if (tag === 'select') {
    const values = await el.evaluate((e) => [...e.options].filter((o) => !o.disabled).map((o) => o.value));
    const v = pick(values);
    await el.selectOption(v, { timeout: 2000 });
    return `select ${what} = ${v}`;
  }
  if (tag === 'input' && type === 'file') return `skip ${what}`;
  if ((tag === 'input' && type !== 'checkbox' && type !== 'radio') || tag === 'textarea') {
    // Set the value as typing would leave it, then fire what typing fires: the page checks
    // on input and applies on change. (Playwright's fill refuses junk in number fields.)
    const v = type === 'range' ? String(Math.round(rnd() * 100)) : pick(JUNK);
    await el.evaluate((e, { v, range }) => {
      const lo = Number(e.min || 0);
      const hi = Number(e.max || 100);
      e.focus();
      e.value = range ? String(lo + ((hi - lo) * Number(v)) / 100) : v;
      e.dispatchEvent(new Event('input', { bubbles: true }));
      e.dispatchEvent(new Event('change', { bubbles: true }));
    }, { v, range: type === 'range' });
    return `type ${what} = ${JSON.stringify(v)}`;
  }
  await el.click({ timeout: 2000 });
  return `click ${what}`;
}

describe('monkey', () => {
  const h = harness();

  // The full page on a desktop, the full page on a phone, and an embed in a small frame.
  const runs = [
    { seed: 1, where: 'desktop', hash: '', viewport: { width: 1280, height: 900 } },
    { seed: 2, where: 'phone (360 px)', hash: '', viewport: { width: 360, height: 740 } },
    { seed: 3, where: 'embed (400×300)', hash: '#embed=1', viewport: { width: 400, height: 300 } },
  ];
  for (const { seed, where, hash, viewport } of runs) {
    test(`300 random actions, ${where}, seed ${seed}: no panic, no console error, the diagram stays`, async () => {
      const { context, page, problems } = await openApp(h.browser, `${h.url}${hash}`, { viewport }, null, {
        ready: 'section.diagram',
      });
      const rnd = prng(seed);
      const log = [];
      try {
        for (let n = 0; n < 300 && problems.length === 0; n++) {
          try {
            log.push(await act(page, rnd));
          } catch (e) {
            // An element that went away between finding and pressing it: the page moved on.
            log.push(`missed ${last}: ${process.env.MONKEY_LOG ? e.message : String(e.message).split("\n")[0]}`);
          }
        }
        if (process.env.MONKEY_LOG) console.log(log.join('\n'));
        assert.deepEqual(problems, [], `after:\n${log.slice(-15).join('\n')}`);
        assert.match((await digestOf(page)) ?? '', /^[0-9a-f]{16}$/, 'the diagram is still drawn');
        const pressed = log.filter((l) => /^(click|select|type|key)/.test(l)).length;
        assert.ok(pressed > 200, `only ${pressed} of 300 actions landed:\n${log.join('\n')}`);
      } finally {
        await context.close();
      }
    });
  }
});

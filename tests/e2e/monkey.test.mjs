// End-to-end: a seeded "monkey" plays with the page the way a curious learner might —
// random clicks on whatever control is visible and enabled, random values typed into every
// field (numbers, junk, JSON fragments), random keyboard shortcuts, random menu entries —
// and the app must never panic, log a console error or lose its diagram. The seed fixes
// every choice; playback runs in real time, so what is on screen when a choice is made can
// still differ between runs — the last actions are printed with a failure (MONKEY_LOG=1
// prints them all). The monkey only reaches for what a pointer could press: shown, enabled
// and on top at its centre (not one link's hit line under another's), checked again once
// scrolled to, where an open popover may cover it. A press that throws
// is then told apart: if the control is gone, hidden, disabled or covered by then, the page
// moved on in between ("gone", allowed — the page is playing in real time); if it is still
// there, shown, enabled and on top, the press failed on a live control — an error, and the
// test fails.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { digestOf, harness, openApp, WAIT } from './lib.mjs';

// How long one press may take before it counts as failed (when its control is still there):
// a quarter of WAIT, since a busy machine slows a click's checks too, but 300 of them must
// still end in reasonable time when a few find their control gone.
const PRESS = WAIT / 4;

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
      .filter((e) => window.__monkeyPressable(e))
      .map((e, i) => {
        e.dataset.monkey = String(i);
        const label = (e.getAttribute('aria-label') || e.textContent || e.getAttribute('name') || '').trim();
        return { i, tag: e.tagName.toLowerCase(), type: e.getAttribute('type') ?? '', label: label.slice(0, 40) };
      });
  });
}

/**
 * Installed in the page before it loads: whether a pointer could press `e` — shown, enabled,
 * and, where the centre of its box is on screen, on top there. (One off screen is scrolled
 * to by the press; `scroll` does that first, for the check after a failed press.)
 */
function installPressable() {
  window.__monkeyPressable = (e, scroll = false) => {
    if (!e.isConnected) return false;
    if (!e.checkVisibility({ visibilityProperty: true, contentVisibilityAuto: true })) return false;
    if (e.matches(':disabled')) return false;
    if (scroll) e.scrollIntoView({ block: 'nearest', inline: 'nearest' });
    const r = e.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) return false;
    const x = r.left + r.width / 2;
    const y = r.top + r.height / 2;
    if (x < 0 || y < 0 || x >= innerWidth || y >= innerHeight) return true;
    const top = document.elementFromPoint(x, y);
    // A <summary>'s text is part of it; so is a labelled control's label.
    return !!top && (e === top || e.contains(top) || top.closest('label')?.control === e);
  };
}

/** Whether the control marked `data-monkey=i` could still be pressed (false if it is gone). */
function stillPressable(page, i) {
  return page
    .evaluate((i) => {
      const e = document.querySelector(`[data-monkey="${i}"]`);
      return !!e && window.__monkeyPressable(e, true);
    }, i)
    .catch(() => false);
}

/** What the monkey last reached for, so a miss can say what it missed. */
let last = '';
/** The mark of the control last reached for (`null` for a key press). */
let lastMark = null;

/** One random action on the page; returns a line for the log. */
async function act(page, rnd) {
  const pick = (xs) => xs[Math.floor(rnd() * xs.length)];
  if (rnd() < 0.15) {
    const key = pick(KEYS);
    await page.keyboard.press(key);
    return `key ${key}`;
  }
  lastMark = null;
  const found = await controls(page);
  if (found.length === 0) return 'nothing to press';
  const { i, tag, type, label } = pick(found);
  const what = `${tag}[${label}]`;
  const el = page.locator(`[data-monkey="${i}"]`);
  last = what;
  lastMark = i;
  if (tag === 'button' && AWAY.test(label)) return `skip ${what}`;
  if (tag === 'select') {
    const values = await el.evaluate((e) => [...e.options].filter((o) => !o.disabled).map((o) => o.value), null, { timeout: PRESS });
    // (The page disables a choice with nothing in it; one emptied as it was picked is left.)
    if (values.length === 0) return `skip empty ${what}`;
    const v = pick(values);
    await el.selectOption(v, { timeout: PRESS });
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
    }, { v, range: type === 'range' }, { timeout: PRESS });
    return `type ${what} = ${JSON.stringify(v)}`;
  }
  // A control below the fold is listed as pressable unseen; once scrolled to, an open
  // popover (a node's or a link's actions, pinned where it opened) may cover it. A pointer
  // would then hit the popover, so the monkey leaves it, as it leaves a covered control it
  // can see, rather than waiting out a press that cannot land.
  const reachable = await el.evaluate((e) => window.__monkeyPressable(e, true), null, { timeout: PRESS });
  if (!reachable) return `skip covered ${what}`;
  await el.click({ timeout: PRESS });
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
      const prepare = (context) => context.addInitScript(installPressable);
      const { context, page, problems } = await openApp(h.browser, `${h.url}${hash}`, { viewport }, prepare, {
        ready: 'section.diagram',
      });
      const rnd = prng(seed);
      const log = [];
      const errors = [];
      try {
        for (let n = 0; n < 300 && problems.length === 0 && errors.length === 0; n++) {
          try {
            log.push(await act(page, rnd));
          } catch (e) {
            const why = process.env.MONKEY_LOG ? e.message : String(e.message).split('\n')[0];
            if (lastMark !== null && !(await stillPressable(page, lastMark))) {
              // Gone, hidden, disabled or covered between finding and pressing it.
              log.push(`gone ${last}: ${why}`);
            } else {
              // Still there, shown, enabled and on top (or a key press): the press itself failed.
              log.push(`ERROR ${last}: ${why}`);
              errors.push(`action ${n} on ${lastMark === null ? 'the keyboard' : last}: ${e.message}`);
            }
          }
        }
        if (process.env.MONKEY_LOG) console.log(log.join('\n'));
        assert.deepEqual(problems, [], `after:\n${log.slice(-15).join('\n')}`);
        assert.deepEqual(errors, [], `a press on a live control failed, after:\n${log.slice(-15).join('\n')}`);
        assert.match((await digestOf(page)) ?? '', /^[0-9a-f]{16}$/, 'the diagram is still drawn');
        const pressed = log.filter((l) => /^(click|select|type|key)/.test(l)).length;
        const gone = log.filter((l) => l.startsWith('gone')).length;
        // Every action pressed something, skipped an export or a covered control on purpose,
        // or found its control gone; "gone" is the page moving on mid-action (a control
        // replaced as the run plays; on the default page, the first load's DOM replaced once
        // by the whole app's), rare since only pressable controls are picked: 1 in the three
        // runs' 900 actions on this machine, once covered controls were left.
        assert.ok(gone <= 20, `${gone} of 300 controls went away before they were pressed:\n${log.join('\n')}`);
        assert.ok(pressed > 250, `only ${pressed} of 300 actions landed:\n${log.join('\n')}`);
      } finally {
        await context.close();
      }
    });
  }
});

// End-to-end: the space-time diagram, playback, narration, the verdict, the stage's actions
// and undo, in the built app (dist/, from `trunk build --release`) in a real Chromium.
// Run with `node --test tests/e2e/` (part of `make test`).
//
// One server and one browser for this file, closed in `after`; every test opens its own
// context and fails on any console error, page error or failed request. Screenshots go to
// target/e2e/.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { SHOTS, harness, openApp, playback, until, WAIT } from './lib.mjs';

/** The gc-pause run's end, in ms of true time. */
const END_MS = 60_005;

const LAPTOP = { viewport: { width: 1280, height: 900 } };

/** The narration a newcomer should see, in this order, while gc-pause plays unfenced. */
const STORY = [
  'granted the lock to client 1 with token 33',
  'client 1 froze',
  "expired client 1's lease",
  'granted the lock to client 2 with token 34',
  'stale write with token 33',
];

/**
 * The notable events of gc-pause unfenced, in order, as "Next notable event" (and playback
 * with reduced motion) visits them: the slider's spoken position and the caption there.
 */
const NOTABLE = [
  ['t = 0.005s, event 5 of 53', 't = 0.0 s: the lock service granted the lock to client 1 with token 33'],
  ['t = 10.000s, event 17 of 53', 't = 10.0 s: client 1 froze (a GC pause); its clock keeps running'],
  ['t = 30.005s, event 18 of 53', "t = 30.0 s: the lock service expired client 1's lease (token 33); client 1 still believes it holds token 33"],
  ['t = 30.005s, event 19 of 53', 't = 30.0 s: the lock service granted the lock to client 2 with token 34; client 1 still believes it holds token 33'],
  ['t = 31.015s, event 27 of 53', "t = 31.0 s: storage accepted client 2's write with token 34 to account:42"],
  ['t = 50.000s, event 31 of 53', 't = 50.0 s: client 1 woke up after 40.0 s, still believing it holds its lock'],
  ['t = 50.005s, event 35 of 53', "t = 50.0 s: storage accepted client 1's stale write with token 33 to account:42 — a newer holder's update is lost: data corrupted"],
  ['t = 50.010s, event 40 of 53', 't = 50.0 s: client 1 stopped believing it holds token 33: it released the lock'],
  ['t = 51.020s, event 48 of 53', 't = 51.0 s: client 2 stopped believing it holds token 34: it released the lock'],
  ['t = 51.025s, event 51 of 53', 't = 51.0 s: client 2 released the lock (token 34)'],
];

/** The verdict of the whole gc-pause run, unfenced, as the panel reads. */
const UNSAFE_VERDICT = [
  'Unsafe: 2 violations',
  "t = 50.0 s storage accepted client 1's write with token 33 after it had accepted token 34 from client 2: a superseded holder (a client whose lock had already passed to another) changed the data",
  "t = 50.0 s client 1's stale write overwrote account:42, which held a newer holder's value: that update is silently lost",
  't = 30.0 s client 1 (token 33) and client 2 (token 34) both believe they hold the lock',
].join('\n');

const sleep = (ms) => new Promise((ok) => setTimeout(ok, ms));

/** The handles every test uses. */
function parts(page) {
  return {
    ...playback(page),
    caption: page.locator('p.caption'),
    diagram: page.getByRole('region', { name: 'Space-time diagram' }),
    verdict: page.getByRole('region', { name: 'Verdict' }),
  };
}

/** The slider's value (ms of true time) and its spoken text. */
async function position(page) {
  const { slider } = parts(page);
  return {
    ms: Number(await slider.inputValue()),
    text: (await slider.getAttribute('aria-valuetext')).split(',')[0],
  };
}

/**
 * Whether each element of `selector` is drawn left of the reveal clip's right edge (the
 * diagram hides everything right of the cursor). Returns one boolean per element.
 */
function revealed(page, selector) {
  return page.evaluate((sel) => {
    const svg = document.querySelector('svg.timeline');
    const clip = Number(svg.querySelector('#reveal rect').getAttribute('width'));
    const vbWidth = svg.viewBox.baseVal.width;
    const box = svg.getBoundingClientRect();
    const edge = box.left + (clip * box.width) / vbWidth;
    return [...svg.querySelectorAll(sel)].map((el) => el.getBoundingClientRect().left < edge);
  }, selector);
}

/** Records every caption text the page shows, in order, into window.__captions. */
async function recordCaptions(page) {
  await page.evaluate(() => {
    const p = document.querySelector('p.caption');
    window.__captions = [p.textContent];
    new MutationObserver(() => {
      const text = p.textContent;
      if (text !== window.__captions.at(-1)) window.__captions.push(text);
    }).observe(p, { childList: true, characterData: true, subtree: true });
  });
}

describe('the space-time diagram and playback', () => {
  const h = harness();

  /**
   * Waits until the page has gone three tasks without changing its DOM (at most ~50 tasks).
   * Yew's scheduler hands a render that takes over 16 ms to the next task, so on a loaded
   * machine a key's effect can land after the key press returns: a check read at once could
   * see half of it (CI once read the slider's old value beside the new time).
   */
  const settle = (page) =>
    page.evaluate(
      () =>
        new Promise((done) => {
          let quiet = 0;
          let tasks = 0;
          const seen = new MutationObserver(() => {
            quiet = 0;
          });
          seen.observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
          const tick = () => {
            quiet += 1;
            tasks += 1;
            if (quiet >= 3 || tasks >= 50) {
              seen.disconnect();
              done();
            } else setTimeout(tick, 0);
          };
          setTimeout(tick, 0);
        }),
    );

  /** Opens the app, runs `body(page)`, then checks that nothing went wrong on the page. */
  async function withApp(options, body, prepare) {
    const { context, page, problems } = await openApp(h.browser, h.url, options, prepare);
    // Every key press here is followed by the render it causes (see `settle`).
    const press = page.keyboard.press.bind(page.keyboard);
    page.keyboard.press = async (...args) => {
      await press(...args);
      await settle(page);
    };
    try {
      try {
        await body(page);
      } catch (err) {
        // A failed check may be the consequence of an error on the page: say both.
        if (problems.length) err.message += `\n(and the page reported: ${problems.join('; ')})`;
        throw err;
      }
      assert.deepEqual(problems, [], 'the page reported problems');
    } finally {
      await context.close();
    }
  }

  test("a newcomer's flow: Play, watch the corruption, then turn fencing on", async () => {
    await withApp(LAPTOP, async (page) => {
      const { button, caption, diagram, verdict, slider } = parts(page);
      await recordCaptions(page);

      // Press nothing but Play, and wait for the run to finish at the default speed.
      await button('Play').click();
      await until(async () => (await position(page)).ms >= END_MS, 'playback to reach the end', {
        timeout: 120_000,
      });
      assert.equal((await position(page)).text, 't = 60.005s');
      await until(async () => (await button('Play').count()) === 1, 'Play to come back at the end');

      // The two-believers band and the stale-write alarm, both drawn and revealed.
      assert.equal(await diagram.locator('svg.timeline g.lane').count(), 4, 'one lane per node');
      const band = diagram.locator('g.band');
      assert.equal(await band.count(), 1, 'one two-believers band');
      // Two believers for 20 s, read off the axis as a reader does (the first load gives no
      // hover text in play): from 30.010 s to 50.010 s, within a unit of the drawing.
      const span = await diagram.locator('svg.timeline').evaluate((svg) => {
        const ticks = [...svg.querySelectorAll('.axis text')].map((t) => [parseFloat(t.textContent), Number(t.getAttribute('x'))]);
        const r = svg.querySelector('g.band rect');
        const x0 = Number(r.getAttribute('x'));
        return { ticks: ticks.filter(([s]) => Number.isFinite(s)), x0, x1: x0 + Number(r.getAttribute('width')) };
      });
      const [[s0, a], [s1, b]] = [span.ticks[0], span.ticks[span.ticks.length - 1]];
      const ms = (x) => (s0 + ((x - a) * (s1 - s0)) / (b - a)) * 1000;
      const unit = ((s1 - s0) * 1000) / (b - a);
      assert.ok(Math.abs(ms(span.x0) - 30_010) <= unit && Math.abs(ms(span.x1) - 50_010) <= unit, `two believers for 20 s: ${ms(span.x0)} to ${ms(span.x1)} ms (${JSON.stringify(span)})`);
      const stale = diagram.locator('g.mark.stale');
      assert.equal(await stale.count(), 1, 'one stale-write alarm');
      // Its label, drawn in its mark, or over the drawing where it was placed left of the
      // mark (it appears whole once the cursor reaches the write, never before).
      const staleLabel = diagram.locator('svg.timeline g.mark.stale text.mark-label, svg.timeline g.across.whole text.alarm');
      assert.deepEqual(await staleLabel.allTextContents(), ['STALE 33 accepted']);
      assert.match(await stale.locator('title').textContent(), /^50\.005s: accepted client 1's write account:42 = .* with token 33$/);
      assert.deepEqual(await revealed(page, 'g.band rect, g.mark.stale circle'), [true, true]);
      assert.equal(await verdict.innerText(), UNSAFE_VERDICT);
      assert.equal(
        await caption.textContent(),
        "End of run — unsafe: storage accepted client 1's write with token 33 after it had accepted token 34 from client 2: a superseded holder (a client whose lock had already passed to another) changed the data (and 1 more violation).",
      );

      await page.screenshot({ path: join(SHOTS, 'unfenced-end.png'), fullPage: true });

      // The caption told the story in order (every text it showed, via a MutationObserver).
      // Checked at the end of the test, so that the fenced half runs and is shot either way.
      const captions = await page.evaluate(() => window.__captions);
      let untold = null;
      let from = 0;
      for (const phrase of STORY) {
        const at = captions.findIndex((c, i) => i >= from && c.includes(phrase));
        if (at < 0) {
          untold ??= phrase;
          continue;
        }
        from = at + 1;
      }

      // One click on the fencing switch: the same story, but storage rejects the stale write.
      const digest = await diagram.getAttribute('data-digest');
      await page.getByRole('button', { name: 'Fencing: off' }).click();
      const fence = page.getByRole('button', { name: 'Fencing: on' });
      assert.equal(await fence.getAttribute('aria-pressed'), 'true');
      assert.notEqual(await diagram.getAttribute('data-digest'), digest, 'a fenced run is a new run');
      assert.equal(await slider.getAttribute('aria-valuetext'), 't = 60.005s, event 47 of 47', 'the cursor stays at the end (of a shorter run)');
      const reject = diagram.locator('g.mark.reject');
      assert.equal(await reject.count(), 1, 'one rejected write');
      assert.equal(await reject.locator('text.mark-label').textContent(), '✕ token 33 < 34');
      assert.deepEqual(await revealed(page, 'g.mark.reject circle'), [true]);
      assert.equal(await diagram.locator('g.mark.stale').count(), 0, 'no stale write when fenced');
      assert.equal(await verdict.getByRole('heading').innerText(), 'Safe: no violation in the whole run');
      assert.match(await page.locator('main').innerText(), /token 33 < 34/);
      assert.equal(
        await caption.textContent(),
        'End of run — safe: the fence rejected client 1\'s stale write (token 33 < 34), so no client whose lock had passed to another changed the data.',
      );
      await page.screenshot({ path: join(SHOTS, 'fenced-end.png'), fullPage: true });

      assert.equal(
        untold,
        null,
        `during playback the caption never said "${untold}" (in order); it showed:\n  ` +
          captions.join('\n  '),
      );
    });
  });

  test('the keyboard drives playback', async () => {
    await withApp(LAPTOP, async (page) => {
      const { button, caption, toolbar } = parts(page);
      await page.locator('body').focus();
      const start = await position(page);
      assert.equal(start.text, 't = 0.000s');

      await page.keyboard.press('End');
      assert.deepEqual(await position(page), { ms: END_MS, text: 't = 60.005s' });
      await page.keyboard.press('Home');
      assert.deepEqual(await position(page), start);

      // → steps one trace entry. The first entries all happen at t = 0, so the time does
      // not move for them; the cursor does (Step back is enabled at once).
      for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowRight');
      assert.equal(await button('Step back').isDisabled(), false, '→ ×3 moved the cursor');
      let presses = 3;
      while ((await position(page)).text === start.text && presses < 6) {
        await page.keyboard.press('ArrowRight');
        presses += 1;
      }
      assert.notEqual((await position(page)).text, start.text, `→ ×${presses} left t = 0`);

      // Shift+→ lands on a notable event, which the caption narrates.
      // Four entries share t = 0; the fourth step reaches t = 0.005 s, just before the grant.
      const { slider } = parts(page);
      assert.equal(await slider.getAttribute('aria-valuetext'), 't = 0.005s, event 4 of 53');
      const here = async () => [await slider.getAttribute('aria-valuetext'), await caption.textContent()];
      await page.keyboard.press('Shift+ArrowRight');
      assert.deepEqual(await here(), NOTABLE[0], 'Shift+→: the grant');
      await page.keyboard.press('Shift+ArrowRight');
      assert.deepEqual(await here(), NOTABLE[1], 'Shift+→: client 1 froze');
      await page.keyboard.press('Shift+ArrowRight');
      assert.deepEqual(await here(), NOTABLE[2], 'Shift+→: the lease expired');
      await page.keyboard.press('Shift+ArrowLeft');
      assert.deepEqual(await here(), NOTABLE[1], 'Shift+←: back to client 1 froze');

      // ] is faster.
      assert.equal(await toolbar.locator('.speed').innerText(), '5×');
      await page.keyboard.press(']');
      assert.equal(await toolbar.locator('.speed').innerText(), '10×');
      assert.equal(await toolbar.getByRole('status').getAttribute('aria-label'), 'Speed 10×');

      // Space plays and pauses.
      await page.keyboard.press('Space');
      assert.equal(await button('Pause').count(), 1, 'Space started playback');
      await sleep(200);
      await page.keyboard.press('Space');
      assert.equal(await button('Play').count(), 1, 'Space paused playback');

      // V jumps to the next violation; F switches fencing.
      await page.keyboard.press('Home');
      await page.keyboard.press('v');
      assert.equal(await slider.getAttribute('aria-valuetext'), NOTABLE[6][0], 'V moved to the stale write');
      await page.keyboard.press('f');
      await page.getByRole('button', { name: 'Fencing: on' }).waitFor();

      // The footer lists every shortcut.
      await page.getByText('Keyboard shortcuts').click();
      const keys = await page.locator('.keys dt').allInnerTexts();
      assert.equal(keys.length, 11, keys.join(' | '));
      for (const k of ['Space', 'V', 'F', 'Ctrl + Shift + Z', 'Esc']) assert.ok(keys.includes(k), `${k} is listed`);
    });
  });

  test('the transcript tells the whole run as text, and each line jumps to its event', async () => {
    await withApp(LAPTOP, async (page) => {
      const { verdict } = parts(page);
      const transcript = page.locator('details.transcript');
      await transcript.locator('summary').click();
      const lines = await transcript.locator('li').allInnerTexts();
      // Every notable event, in order, one line each.
      assert.deepEqual(
        lines,
        NOTABLE.map(([, c]) => c.replace(/^(t = [\d.]+ s): /, '$1 ')),
      );
      // The newcomer's story, in order, without pressing Play.
      let at = -1;
      for (const needle of STORY) {
        const i = lines.findIndex((l, j) => j > at && l.includes(needle));
        assert.ok(i > at, `"${needle}" after line ${at} in:\n${lines.join('\n')}`);
        at = i;
      }
      assert.equal(
        await transcript.locator('.ending').innerText(),
        "End of run — unsafe: storage accepted client 1's write with token 33 after it had accepted token 34 from client 2: a superseded holder (a client whose lock had already passed to another) changed the data (and 1 more violation).",
      );
      // A line's time is a jump: the stale write's line moves the cursor there.
      const stale = transcript.locator('li', { hasText: 'stale write with token 33' });
      await stale.getByRole('button').click();
      assert.equal(await parts(page).slider.getAttribute('aria-valuetext'), NOTABLE[6][0]);
      assert.equal(await verdict.getByRole('heading').innerText(), 'Unsafe: 2 violations');
    });
  });

  test('schedules nothing while paused or finished', async () => {
    const counters = () => {
      window.__rafCount = 0;
      window.__timeoutCount = 0;
      window.__intervalCount = 0;
      const raf = window.requestAnimationFrame.bind(window);
      const timeout = window.setTimeout.bind(window);
      const interval = window.setInterval.bind(window);
      window.requestAnimationFrame = (cb) => {
        window.__rafCount += 1;
        return raf(cb);
      };
      window.setTimeout = (...args) => {
        window.__timeoutCount += 1;
        return timeout(...args);
      };
      window.setInterval = (...args) => {
        window.__intervalCount += 1;
        return interval(...args);
      };
    };
    const counts = (page) =>
      page.evaluate(() => ({
        raf: window.__rafCount,
        timeout: window.__timeoutCount,
        interval: window.__intervalCount,
      }));
    await withApp(
      LAPTOP,
      async (page) => {
        const { button, slider } = parts(page);
        await button('Play').click();
        // Playing, the loop runs: frames requested, ticks rendered (the page's own count of
        // them, window.leaselineFrames), the model's clock moved — however long a loaded
        // machine takes to get there.
        await until(async () => (await counts(page)).raf > 10, 'ten animation frames while playing', { timeout: WAIT });
        await until(
          () => page.evaluate(() => (window.leaselineFrames?.length ?? 0) > 10),
          'ten frames ticked and rendered',
          { timeout: WAIT },
        );
        await until(async () => (await position(page)).ms > 0, 'playback to move the cursor', { timeout: WAIT });

        // Paused or finished, nothing is scheduled: over a second (and more on a loaded
        // machine, where the waits only grow), the counters and the cursor stand still. A
        // slow machine cannot make work appear, so these waits cannot flake.
        const still = async () => ({ ...(await counts(page)), at: await slider.getAttribute('aria-valuetext') });
        await page.keyboard.press('Space');
        assert.equal(await button('Play').count(), 1, 'Space paused');
        await sleep(300);
        const paused = await still();
        await sleep(1000);
        assert.deepEqual(await still(), paused, 'paused, the page kept scheduling work');

        await page.keyboard.press('End');
        assert.equal((await position(page)).ms, END_MS);
        await sleep(300);
        const ended = await still();
        await sleep(1000);
        assert.deepEqual(await still(), ended, 'at the end, the page kept scheduling work');
      },
      (context) => context.addInitScript(counters),
    );
  });

  test('a fault from the stage re-simulates the run, and undo/redo restore it', async () => {
    await withApp(LAPTOP, async (page) => {
      const { button, diagram, slider } = parts(page);
      const d0 = await diagram.getAttribute('data-digest');
      assert.match(d0, /^[0-9a-f]+$/);

      // Scrub to t = 5 s, then pause client 1 there for 40 s from its action menu.
      await slider.fill('5000');
      assert.equal((await position(page)).text, 't = 5.000s');
      await page.locator('svg.stage g[role=button][aria-label^="client 1:"]').click();
      const menu = page.getByRole('group', { name: /^Actions for client 1/ });
      await menu.waitFor({ state: 'visible' });
      for (const name of ['Pause 5 s', 'Pause 10 s', 'Pause 40 s', 'Clock +10 s', 'Clock −10 s']) {
        assert.equal(await menu.getByRole('button', { name, exact: true }).count(), 1, name);
      }
      await menu.getByRole('button', { name: 'Pause 40 s', exact: true }).click();
      // On the default page this first edit beyond the fence switch brings the whole app
      //, which then makes it: wait for the new run rather than read at once.
      const d1 = await until(async () => {
        const d = await diagram.getAttribute('data-digest');
        return d !== d0 && d;
      }, 'the fault changed the run');
      assert.equal(await menu.count(), 0, 'the menu closes once the action is applied');
      assert.equal((await position(page)).text, 't = 5.000s', 'the cursor stays where it was');

      // Each undo or redo re-simulates, and Yew's scheduler hands a render that takes over
      // 16 ms to the next task: on a loaded machine the new diagram lands a little after the
      // key or click returns, so wait for it (up to 10 s) rather than read at once.
      const becomes = (want, what) =>
        until(async () => (await diagram.getAttribute('data-digest')) === want, what);
      await button('Undo').click();
      await becomes(d0, 'Undo restores the run');
      await button('Redo').click();
      await becomes(d1, 'Redo re-applies the fault');
      await page.locator('body').focus();
      await page.keyboard.press('Control+z');
      await becomes(d0, 'Ctrl+Z undoes');
      await page.keyboard.press('Control+Shift+z');
      await becomes(d1, 'Ctrl+Shift+Z redoes');

      // Escape closes an open stage menu.
      await page.locator('svg.stage g[role=button][aria-label^="link client 1–the lock service"]').click();
      const linkMenu = page.getByRole('group', { name: /^Actions for link/ });
      await linkMenu.waitFor({ state: 'visible' });
      assert.equal(await linkMenu.getByRole('button', { name: 'Partition', exact: true }).count(), 1);
      await page.keyboard.press('Escape');
      assert.equal(await linkMenu.count(), 0, 'Escape closed the menu');
    });
  });

  test('Next violation jumps to the stale write', async () => {
    await withApp(LAPTOP, async (page) => {
      const { caption, verdict } = parts(page);
      await page.getByRole('button', { name: 'Next violation', exact: true }).click();
      const { slider } = parts(page);
      assert.deepEqual([await slider.getAttribute('aria-valuetext'), await caption.textContent()], NOTABLE[6]);
      assert.equal(await verdict.getByRole('heading').innerText(), 'Unsafe: 2 violations');
      assert.deepEqual(await revealed(page, 'g.mark.stale circle'), [true]);

      // The verdict's own link jumps too.
      await page.keyboard.press('Home');
      assert.equal((await position(page)).ms, 0);
      await page.keyboard.press('End');
      await verdict.getByRole('button', { name: 't = 50.0 s' }).first().click();
      assert.equal(await slider.getAttribute('aria-valuetext'), NOTABLE[6][0]);
    });
  });

  test('with reduced motion, playback moves in discrete jumps', async () => {
    await withApp({ ...LAPTOP, reducedMotion: 'reduce' }, async (page) => {
      const { button, slider } = parts(page);
      await recordCaptions(page);
      // Every position the slider is given (its spoken text, which names the event), from
      // the page's own renders — not sampled by a clock, so none is missed however slow.
      await page.evaluate(() => {
        const s = document.querySelector('input[type=range][aria-label="Time"]');
        window.__positions = [];
        new MutationObserver(() => {
          const v = s.getAttribute('aria-valuetext');
          if (v !== window.__positions.at(-1)) window.__positions.push(v);
        }).observe(s, { attributes: true, attributeFilter: ['aria-valuetext'] });
      });
      await button('Play').click();
      // Four jumps (about 0.9 s of real time apart; how long does not matter).
      await until(
        () => page.evaluate(() => window.__positions.length >= 4),
        'four jumps of reduced-motion playback',
        { timeout: WAIT },
      );
      await page.keyboard.press('Space');
      await button('Play').waitFor();
      const positions = await page.evaluate(() => window.__positions);
      const captions = await page.evaluate(() => window.__captions);
      // Each jump lands on the next notable event, none skipped, nothing in between (a smooth
      // sweep would pass through times that are no notable event's), and each is captioned.
      const n = positions.length;
      assert.deepEqual(positions, NOTABLE.slice(0, n).map(([at]) => at), 'the slider moved only from notable event to notable event');
      assert.deepEqual(
        captions,
        ['Press Play (Space) to run the scenario.', ...NOTABLE.slice(0, n).map(([, c]) => c)],
        'one caption per jump',
      );
      assert.equal(await slider.getAttribute('aria-valuetext'), NOTABLE[n - 1][0], 'paused where the last jump landed');
    });
  });

  test('a bad settings value is refused at its field, in seconds, and the run is kept', async () => {
    await withApp(LAPTOP, async (page) => {
      const diagram = page.getByRole('region', { name: 'Space-time diagram' });
      const before = await diagram.getAttribute('data-digest');
      await page.locator('details.settings summary').click();
      const ttl = page.locator('details.settings label.field', { hasText: 'TTL' }).locator('input');
      await ttl.fill('0');
      await ttl.press('Enter');
      await ttl.blur();
      await until(async () => (await ttl.getAttribute('aria-invalid')) === 'true', 'the field marked');
      const note = page.locator(`[id="${await ttl.getAttribute('aria-describedby')}"]`);
      assert.equal(await note.innerText(), 'TTL must be between 0.001 s and 86,400 s');
      assert.equal(await page.getByRole('alert').count(), 0, 'said at the field, not in a banner');
      assert.equal(await diagram.getAttribute('data-digest'), before, 'the scenario survives');
      // A good value is applied and re-runs the model.
      await ttl.fill('20');
      await ttl.press('Enter');
      await ttl.blur();
      await until(async () => (await diagram.getAttribute('data-digest')) !== before, 'a new run');
    });
  });

  test('fits a 360px-wide screen; the diagram is drawn at its box\'s width', async () => {
    await withApp({ viewport: { width: 360, height: 740 } }, async (page) => {
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      assert.equal(overflow, 0, 'the page is wider than the screen');
      // Laid out at the box's width: nothing to scroll sideways.
      const box = () =>
        page.evaluate(() => {
          const s = document.querySelector('section.diagram');
          return { scroll: s.scrollWidth, client: s.clientWidth };
        });
      await until(async () => {
        const b = await box();
        return b.scroll <= b.client;
      }, 'the diagram fitted to its box');
      for (const name of ['Play', 'Step back', 'Step forward', 'Next violation']) {
        assert.ok(await parts(page).button(name).isVisible(), `${name} is visible`);
      }
      // Wherever the cursor goes, its line is in sight without scrolling.
      const cursorInView = () =>
        page.evaluate(() => {
          const s = document.querySelector('section.diagram').getBoundingClientRect();
          const c = document.querySelector('svg.timeline line.cursor').getBoundingClientRect();
          return c.left >= s.left && c.right <= s.right;
        });
      const scrolled = () => page.evaluate(() => document.querySelector('section.diagram').scrollLeft);
      await parts(page).button('Next violation').click();
      await until(cursorInView, 'the cursor in view at the first violation');
      await parts(page).button('Jump to start').click();
      await until(cursorInView, 'the cursor in view at the start');
      await parts(page).button('Jump to end').click();
      await until(cursorInView, 'the cursor in view at the end');
      assert.equal(await scrolled(), 0, 'the box never scrolled');
      await page.screenshot({ path: join(SHOTS, 'timeline-360.png'), fullPage: true });
    });
  });
});

// End-to-end: an embed shows the story whole at every frame size a course page may give
// it, fits its host frame to its content, and tells the host the learner's progress.
//
// - The sweep: frames from 280 (narrower than a course page's column on a 320 px phone) to
//   1280 wide and 240 to 900 tall, each through the states a reader passes (the load,
//   every beat of the GC-pause lesson, the end, an interview question's stop and its
//   reveal). At each, read off the rendered page: every lane's name inside the visible
//   drawing, every word of the drawing at least 10 px, the stale write's mark in view at
//   the end, a waiting question's box open on it and, from 360×420 up, the question whole
//   and its first choice in view, the answer's first line once answered, nothing cut off at the frame's sides, no two visible text blocks or controls
//   overlapping, no text block squeezed narrower than about ten characters. A contact
//   sheet of the sweep's screenshots goes to target/e2e/embed-sweep.png.
// - Fit to content: examples/course.html resizes its frames from their messages, in each
//   of the three conventions (ours, Canvas's, H5P's), on a desktop's page, and in ours
//   also on a phone's (360 wide) and in a small window (480×360); then nothing in a frame
//   scrolls, its lanes are the usual height and it stays inside the page's width.
// - Progress: the same page records the statements for a lesson walked to its end and a
//   question answered to its model answer, in order.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { SHOTS, harness, openApp, playback, serveExamples, servePages, stopServer, until, urlOf } from './lib.mjs';

const WIDTHS = [280, 320, 360, 480, 640, 960, 1280];
const HEIGHTS = [240, 420, 640, 900];

/**
 * What a reader would find wrong on the page as it is drawn now; `end` also asks for the
 * stale write's mark in view. Runs in the page.
 */
function inspect({ end, asking = false, answered = false }) {
  const bad = [];
  const view = { l: 0, t: 0, r: innerWidth, b: innerHeight };
  const cut = (a, b) => ({ l: Math.max(a.l, b.l), t: Math.max(a.t, b.t), r: Math.min(a.r, b.r), b: Math.min(a.b, b.b) });
  const box = (r) => ({ l: r.left, t: r.top, r: r.right, b: r.bottom });
  const empty = (b) => b.r - b.l < 1 || b.b - b.t < 1;
  // The part of an element a reader can see: its box cut by every ancestor that clips.
  const seen = (el) => {
    let b = cut(box(el.getBoundingClientRect()), view);
    for (let a = el.parentElement; a && a !== document.documentElement; a = a.parentElement) {
      const cs = getComputedStyle(a);
      if (cs.overflowX !== 'visible' || cs.overflowY !== 'visible') b = cut(b, box(a.getBoundingClientRect()));
    }
    return b;
  };
  const shown = (el) => el.checkVisibility({ visibilityProperty: true, opacityProperty: true });
  const name = (el) => `${el.tagName.toLowerCase()}${el.className?.baseVal ?? el.className ? '.' + (el.className.baseVal ?? el.className).split(' ')[0] : ''} "${(el.textContent || el.getAttribute('aria-label') || '').trim().slice(0, 30)}"`;

  // A drawn word's size on screen: its font size in drawing units, scaled as its drawing is.
  const drawnPx = (t) => {
    const svg = t.ownerSVGElement;
    return parseFloat(getComputedStyle(t).fontSize) * svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
  };

  const frame = document.querySelector('.timeline-frame');
  if (!frame) return ['no drawing'];
  const drawing = seen(frame);
  for (const lane of document.querySelectorAll('.lane-names .lane-name')) {
    const r = box(lane.getBoundingClientRect());
    if (r.l < drawing.l - 1 || r.r > drawing.r + 1 || r.t < drawing.t - 1 || r.b > drawing.b + 1) {
      bad.push(`lane ${name(lane)} outside the drawing's visible box`);
    }
    const px = drawnPx(lane);
    if (px < 9.95) bad.push(`lane ${name(lane)} drawn at ${px.toFixed(1)} px`);
  }
  // Every word of the drawing (ticks, clocks, marks' labels, glyphs) at 10 px or more.
  for (const t of document.querySelectorAll('svg.timeline text')) {
    if (!shown(t)) continue;
    const px = drawnPx(t);
    if (px < 9.95) bad.push(`${name(t)} drawn at ${px.toFixed(1)} px`);
  }
  if (end) {
    const marks = [...document.querySelectorAll('svg.timeline .stale')].filter(shown);
    if (marks.length === 0) bad.push('no stale-write mark drawn at the end');
    for (const m of marks) {
      const r = box(m.getBoundingClientRect());
      if (r.l < drawing.l - 1 || r.r > drawing.r + 1 || r.t < drawing.t - 1 || r.b > drawing.b + 1) {
        bad.push(`the stale write's mark ${name(m)} outside the drawing's visible box`);
      }
    }
  }
  // A question waiting for a prediction, in a frame as tall as the Share dialog's Medium
  // one or taller: its box opens on the question, never scrolled past it; from 360 px wide
  // the question is whole and the first choice's first line is in view too. (Narrower,
  // the box is shorter than the question's four lines with the controls' two rows above.)
  if (asking && innerHeight >= 420) {
    const question = document.querySelector('.stop-question');
    const choice = document.querySelector('.choices .choice');
    if (!question || !choice) bad.push('no question or no choice drawn');
    else {
      const q = seen(question);
      const whole = question.getBoundingClientRect();
      if (q.t > whole.top + 1) bad.push(`the question ${name(question)} scrolled past`);
      if (innerWidth >= 360) {
        if (q.b < whole.bottom - 1) bad.push(`the question ${name(question)} not wholly in view`);
        const c = seen(choice);
        if (c.b - c.t < 12) bad.push(`the first choice ${name(choice)} not in view (${Math.max(0, c.b - c.t).toFixed(0)} px of it)`);
      }
    }
  }
  // Once answered, the box opens on the answer's first line (right or not, and what the
  // run did), not partway down it.
  if (answered) {
    const line = document.querySelector('.quiz .verdict-line');
    if (!line) bad.push('no answer drawn');
    else if (seen(line).t > line.getBoundingClientRect().top + 1) bad.push(`the answer ${name(line)} scrolled past`);
  }
  const candidates = [
    ...document.querySelectorAll('.shell.embed :is(button, a, input, select, p, h2, h3, li, summary, label, .caption)'),
  ].filter((el) => !el.closest('svg') && shown(el));
  // The frame never scrolls, so nothing may stand past its sides (text for screen readers
  // only is drawn nowhere).
  for (const el of candidates) {
    const r = el.getBoundingClientRect();
    if (r.width > 0 && !el.closest('.sr-only') && (r.left < -1 || r.right > innerWidth + 1)) {
      bad.push(`${name(el)} cut off at the frame's side (${r.left.toFixed(0)}–${r.right.toFixed(0)} px)`);
    }
  }
  const blocks = candidates
    .map((el) => ({ el, b: seen(el) }))
    .filter(({ b }) => !empty(b));
  for (let i = 0; i < blocks.length; i++) {
    const { el, b } = blocks[i];
    // Nothing outside the drawing lies over it (the lane names stick over its left edge).
    if (!el.closest('.timeline-frame')) {
      const c = cut(b, drawing);
      if (c.r - c.l > 2 && c.b - c.t > 2) bad.push(`${name(el)} lies over the drawing`);
    }
    for (let j = i + 1; j < blocks.length; j++) {
      const o = blocks[j];
      if (el.contains(o.el) || o.el.contains(el)) continue;
      const c = cut(b, o.b);
      if (c.r - c.l > 2 && c.b - c.t > 2) bad.push(`${name(el)} overlaps ${name(o.el)}`);
    }
    if (/^(P|H2|H3|LI)$/.test(el.tagName) || el.classList.contains('beat')) {
      const text = el.textContent.trim();
      const font = parseFloat(getComputedStyle(el).fontSize);
      const w = el.getBoundingClientRect().width;
      if (text.length >= 10 && w < 10 * 0.5 * font) bad.push(`${name(el)} squeezed to ${w.toFixed(0)} px`);
      if (font < 9.95) bad.push(`${name(el)} at ${font} px`);
    }
  }
  return bad;
}

describe('embeds at every size', () => {
  const h = harness();

  test('every frame from 280×240 to 1280×900 shows the story whole through a lesson and a question', async () => {
    const bad = [];
    const shots = [];
    const browser = h.browser;
    for (const width of WIDTHS) {
      for (const height of HEIGHTS) {
        const size = `${width}×${height}`;
        const { context, page, problems } = await openApp(browser, `${h.url}#s=gc-pause&embed=1`, {
          viewport: { width, height },
        });
        const check = async (state, { end = false, asking = false, answered = false, shot = false } = {}) => {
          // Two frames, so the drawing's lanes (set from the frame's measured height) are in.
          await page.evaluate(() => new Promise((ok) => requestAnimationFrame(() => requestAnimationFrame(ok))));
          for (const b of await page.evaluate(inspect, { end, asking, answered })) bad.push(`${size} ${state}: ${b}`);
          if (shot) {
            const path = join(SHOTS, `embed-sweep-${width}x${height}-${state}.png`);
            await page.screenshot({ path });
            shots.push({ size, state, path, width, height });
          }
        };
        try {
          await check('load', { shot: true });
          const guide = page.getByRole('region', { name: 'Walkthrough' });
          const next = guide.getByRole('button', { name: 'Next', exact: true });
          // The beat's text, read even where a short frame hides the heading that counts it.
          const said = () => guide.locator('.beat').evaluate((el) => el.textContent);
          for (let beat = 1; !(await next.isDisabled()); beat++) {
            const before = await said();
            await next.click();
            await until(async () => (await said()) !== before, `beat ${beat}`);
            await check(`beat-${beat}`, { shot: await next.isDisabled() });
          }
          await page.locator('body').press('End');
          // At the end (the link says so: an embed rewrites its own address as it goes).
          await until(async () => /[#&]t=[1-9]/.test(page.url()), 'the end');
          await check('end', { end: true, shot: true });

          await page.goto('about:blank');
          await page.goto(`${h.url}#quiz=1&embed=1`);
          const quiz = page.getByRole('region', { name: 'Interview question' });
          await quiz.getByRole('button', { name: 'Skip to the stop' }).first().click();
          const choices = quiz.getByRole('group', { name: 'Your prediction' });
          await choices.waitFor();
          await check('question', { asking: true, shot: true });
          await choices.getByRole('button').first().click();
          await quiz.getByRole('button', { name: 'Play on' }).click();
          await quiz.getByRole('button', { name: /^(Next stop|Show the model answer)$/ }).waitFor();
          await check('reveal', { answered: true, shot: true });
          assert.deepEqual(problems, [], size);
        } finally {
          await context.close();
        }
      }
    }

    // The contact sheet: every screenshot at half size, captioned, in one picture.
    const sheet = await browser.newPage({ viewport: { width: 1600, height: 900 } });
    try {
      const figures = await Promise.all(
        shots.map(async (s) => {
          const data = (await readFile(s.path)).toString('base64');
          return `<figure><img src="data:image/png;base64,${data}" width="${s.width / 2}" height="${s.height / 2}"><figcaption>${s.size} ${s.state}</figcaption></figure>`;
        }),
      );
      await sheet.setContent(
        `<style>body{margin:8px;font:12px sans-serif;display:flex;flex-wrap:wrap;gap:8px;align-items:flex-start}figure{margin:0}img{display:block;border:1px solid #888}</style>${figures.join('')}`,
      );
      await sheet.screenshot({ path: join(SHOTS, 'embed-sweep.png'), fullPage: true });
    } finally {
      await sheet.close();
    }
    assert.ok(shots.length >= WIDTHS.length * HEIGHTS.length * 5, `${shots.length} screenshots`);
    assert.deepEqual(bad, []);
  });

  test("the share dialog's code, with the course's origin and the fit line, pasted into a page fits its frame", async () => {
    // The course's site: the page is written once the dialog has given its code.
    const pages = {};
    const site = await servePages(pages);
    const course = urlOf(site).replace(/\/$/, '');
    const { context, page, problems } = await openApp(h.browser, `${h.url}#s=gc-pause`, { viewport: { width: 1280, height: 900 } });
    try {
      await page.getByRole('button', { name: 'Share', exact: true }).click();
      const dialog = page.getByRole('region', { name: 'Share' });
      const origins = dialog.getByRole('textbox', { name: /course page's origin/ });
      // A bad origin is flagged at its field, and the code leaves origins= out.
      await origins.fill('courses.example/path');
      await until(async () => (await dialog.locator('#share-origins-error').count()) === 1, 'the field error');
      assert.match(await dialog.locator('#share-origins-error').innerText(), /^origins:/);
      assert.doesNotMatch(await dialog.getByRole('textbox', { name: 'Embed code' }).inputValue(), /origins=/);
      await origins.fill(course);
      await dialog.getByRole('checkbox', { name: /Fit the frame's height/ }).check();
      const code = await dialog.getByRole('textbox', { name: 'Embed code' }).inputValue();
      assert.ok(code.includes(`&amp;origins=${course}"`), code);
      assert.ok(code.endsWith(`\n<script src="${h.url}leaseline-fit.js" async></script>`), code);
      await page.screenshot({ path: join(SHOTS, 'share-dialog-fit.png') });

      // The course page: the code pasted as it is.
      const host = await context.newPage();
      host.on('pageerror', (err) => problems.push(`course page: ${err.message}`));
      pages['/unit-2.html'] = `<!doctype html><title>Unit 2</title><h1>Unit 2</h1>${code}<p>After the frame.</p>`;
      await host.goto(`${course}/unit-2.html`);
      const frame = host.frameLocator('iframe');
      await frame.getByRole('toolbar', { name: 'Playback' }).waitFor();
      await until(
        () =>
          frame.locator('body').evaluate(() => {
            const svg = document.querySelector('svg.timeline');
            const still = [...document.querySelectorAll('*')].some(
              (el) => /auto|scroll/.test(getComputedStyle(el).overflowY) && el.scrollHeight > el.clientHeight + 1,
            );
            return svg && Number(svg.dataset.natural) === svg.viewBox.baseVal.height && !still;
          }),
        'the pasted frame fitted to its content',
      );
      const px = await host.locator('iframe').evaluate((f) => f.getBoundingClientRect().height);
      assert.ok(px > 420, `${px} px`);
      await host.screenshot({ path: join(SHOTS, 'embed-fit-pasted.png'), fullPage: true });
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
      await stopServer(site);
    }
  });

  test('an embed of a span plays only that span: the slider, Play, Home and End stay inside it', async () => {
    const { context, page, problems } = await openApp(h.browser, `${h.url}#s=gc-pause&embed=1&from=25000&to=52000`, {
      viewport: { width: 640, height: 420 },
    });
    try {
      const { slider, button } = playback(page);
      const value = () => slider.evaluate((el) => Number(el.value));
      assert.deepEqual(await slider.evaluate((el) => [el.min, el.max, el.value]), ['25000', '52000', '25000']);
      // The drawing as the link opens, to hold beside the whole app's below. (Every element
      // and attribute, in order; the whole app wraps the shapes in one more group, which
      // carries a zoom's stand-in transform.)
      const drawing = async (p) =>
        (await p.locator('section.diagram svg.timeline').innerHTML()).replace(/<g>|<\/g>/g, '');
      // Once the frame's fit has settled the lanes' height: the same twice, 300 ms apart.
      const drawn = async (p) => {
        for (let last = null; ; await p.waitForTimeout(300)) {
          const now = await drawing(p);
          if (now === last) return now;
          last = now;
        }
      };
      const ours = await drawn(page);
      assert.ok(await button('Jump to start').isDisabled(), 'at the start of the span');
      // The axis starts at the span, not at the run's 0 s.
      const ticks = await page.locator('svg.timeline .axis text').allTextContents();
      assert.ok(!ticks.includes('0') && ticks.some((t) => /^(25|30) s$/.test(t)), ticks.join(' '));
      // The walkthrough tells the beats inside the span only: the lease's expiry first.
      const guide = page.getByRole('region', { name: 'Walkthrough' });
      await guide.getByRole('button', { name: 'Next', exact: true }).click();
      await until(async () => /lease has run out/.test(await guide.locator('.beat').textContent()), 'the first beat inside the span');
      await page.screenshot({ path: join(SHOTS, 'embed-span-640x420.png') });
      await button('Jump to start').click();
      await button('Play').click();
      await until(async () => (await button('Play').count()) === 1 && (await value()) >= 51_000, 'Play stopped at the span\'s end');
      assert.ok((await value()) <= 52_000, `${await value()}`);
      assert.ok(await button('Jump to end').isDisabled());
      await page.screenshot({ path: join(SHOTS, 'embed-span-end-640x420.png') });
      await page.locator('body').press('Home');
      await until(async () => (await value()) === 25_000, 'Home at the span\'s start');
      // Played by the links' player, which draws the span as the whole app does: the same
      // link with its window written out (`z=`, a key only the whole app reads).
      assert.equal(await page.evaluate(() => window.leaselineBuild.player), true, 'the links\' player');
      assert.equal(await page.locator('.zoom-window').innerText(), '25.0 – 52.0 s of 60.0 s');
      assert.deepEqual(problems, []);
      const whole = await openApp(h.browser, `${h.url}#s=gc-pause&embed=1&from=25000&to=52000&z=25000-52000`, {
        viewport: { width: 640, height: 420 },
      });
      try {
        assert.equal(await whole.page.evaluate(() => window.leaselineBuild.player), false, 'the whole app');
        assert.equal(await playback(whole.page).slider.inputValue(), '25000');
        assert.equal(await drawn(whole.page), ours, 'the same drawing in both builds');
        assert.deepEqual(whole.problems, []);
      } finally {
        await whole.context.close();
      }
    } finally {
      await context.close();
    }
  });

  // Each convention on a desktop's page; ours also on a phone's and in a small window,
  // where the text below the drawing wraps to many lines and must still not scroll.
  const pages = [
    ['leaseline', 1024, 800],
    ['leaseline', 360, 740],
    ['leaseline', 480, 360],
    ['canvas', 1024, 800],
    ['h5p', 1024, 800],
  ];
  for (const [fit, width, height] of pages) {
    test(`a ${width}×${height} course page fits its frames from their ${fit} messages, and nothing scrolls inside them`, async () => {
      const examples = await serveExamples();
      try {
        const host = `${urlOf(examples)}course.html?app=${encodeURIComponent(h.url)}&fit=${fit}`;
        const { context, page, problems } = await openApp(h.browser, host, { viewport: { width, height } }, null, {
          ready: 'h1',
        });
        try {
          for (const id of ['lesson', 'question']) {
            const frame = page.frameLocator(`#${id}`);
            await frame.getByRole('toolbar', { name: 'Playback' }).waitFor();
            // In view, as a reader scrolls it: the browser lays out a frame out of view
            // only when it comes into view.
            await page.locator(`#${id}`).scrollIntoViewIfNeeded();
            // Fitted: the frame grew from the page's 300 px and the embed is laid out in it
            // with nothing left over to scroll.
            const fitted = () =>
              frame.locator('body').evaluate(() => {
                const boxes = [...document.querySelectorAll('*')].filter((el) => {
                  const cs = getComputedStyle(el);
                  return /auto|scroll/.test(cs.overflowY) && el.scrollHeight > el.clientHeight + 1;
                });
                const svg = document.querySelector('svg.timeline');
                const usual = svg && Number(svg.dataset.natural) === svg.viewBox.baseVal.height;
                return boxes.length === 0 && document.documentElement.scrollHeight <= innerHeight && usual
                  ? true
                  : { scrolls: boxes.map((el) => `${el.className} ${el.scrollHeight}>${el.clientHeight}`), usual };
              });
            await until(async () => (await fitted()) === true, `the ${id} frame fitted (${JSON.stringify(await fitted())})`);
            const box = await page.locator(`#${id}`).evaluate((f) => f.getBoundingClientRect().toJSON());
            assert.ok(box.height > 300, `${id}: ${box.height} px`);
            assert.ok(box.left >= 0 && box.right <= width, `${id}: inside the page's width (${box.left}..${box.right})`);
            await page.locator(`#${id}`).screenshot({ path: join(SHOTS, `embed-fit-${fit}-${width}x${height}-${id}.png`) });
          }
          // Settled: a frame left alone asks for nothing more (no swing between heights).
          await settles(page, 'the heights settle');
          if (fit === 'leaseline') {
            await progress(page);
            await settles(page, 'the heights settle after the reveal');
          }
          assert.deepEqual(problems, []);
        } finally {
          await context.close();
        }
      } finally {
        await stopServer(examples);
      }
    });
  }
});

/**
 * Waits until the frames ask for no new height for 1.5 s: a frame that swings between two
 * heights never does, and fails after WAIT. (The last render of a step may still be on its
 * way when the step's own signal arrives, so one more height may come first.)
 */
async function settles(page, what) {
  let before = await page.evaluate(() => window.heights.length);
  await until(async () => {
    await page.waitForTimeout(1_500);
    const now = await page.evaluate(() => window.heights.length);
    const still = now === before;
    before = now;
    return still;
  }, what);
}

/** Walks the lesson to its end and the question to its model answer; reads the record. */
async function progress(page) {
  const lesson = page.frameLocator('#lesson');
  const next = lesson.getByRole('region', { name: 'Walkthrough' }).getByRole('button', { name: 'Next', exact: true });
  let beats = 0;
  while (!(await next.isDisabled())) {
    await next.click();
    beats++;
    await until(() => page.evaluate((n) => window.statements.filter((s) => s.verb === 'progressed').length >= n, beats), `beat ${beats}`);
  }
  await until(() => page.evaluate(() => window.statements.some((s) => s.verb === 'completed')), 'the lesson completed');
  const lessonSaid = await page.evaluate(() => window.statements.map((s) => `${s.verb} ${s.object.kind} ${s.object.id} ${JSON.stringify(s.result)}`));
  const want = [];
  for (let k = 1; k <= beats; k++) want.push(`progressed lesson gc-pause {"beat":${k},"beats":${beats}}`);
  want.push(`completed lesson gc-pause {"beats":${beats}}`);
  assert.deepEqual(lessonSaid, want);

  const quiz = page.frameLocator('#question').getByRole('region', { name: 'Interview question' });
  let stops = 0;
  for (;;) {
    await quiz.getByRole('button', { name: 'Skip to the stop' }).first().click();
    await quiz.getByRole('group', { name: 'Your prediction' }).getByRole('button').first().click();
    await quiz.getByRole('button', { name: 'Play on' }).click();
    const on = quiz.getByRole('button', { name: /^(Next stop|Show the model answer)$/ });
    await on.waitFor();
    stops++;
    const last = (await on.innerText()) === 'Show the model answer';
    await on.click();
    if (last) break;
  }
  await until(() => page.evaluate(() => window.statements.some((s) => s.from === 'question' && s.verb === 'completed')), 'the question completed');
  const asked = await page.evaluate(() => window.statements.filter((s) => s.from === 'question'));
  assert.deepEqual(
    asked.map((s) => s.verb),
    [...Array(stops).fill('answered'), 'completed'],
  );
  const rights = asked.filter((s) => s.verb === 'answered' && s.result.success).length;
  assert.deepEqual(asked.at(-1).result, { score: rights, max: stops, success: rights === stops });
  for (const [i, s] of asked.slice(0, -1).entries()) {
    assert.equal(s.object.id, 'quiz=1');
    assert.equal(s.result.stop, i);
    assert.equal(typeof s.result.response, 'string');
    assert.equal(s.actor, 'learner@course.example', 'the host adds the actor');
  }
}

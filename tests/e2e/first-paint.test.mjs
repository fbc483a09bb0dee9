// End-to-end: the first paint. index.html carries the default run at its start,
// drawn at build time by the core, so the diagram is on screen before the wasm arrives —
// here, with the wasm never arriving at all. A link to a built-in lesson, fix, question or
// embed shows its own run's picture, drawn at build time too and fetched by the link; any
// other link keeps the default picture hidden from the first paint on, so the default run
// is never shown in another's place; once the app mounts, the picture is gone and the
// app's diagram is the only one. The picture stands in the page the app draws around it (the header, the
// bars, the caption, the walkthrough, their controls inert until then), so the app taking
// over moves nothing: the diagram stays where the reader found it.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { SHOTS, harness, openApp } from './lib.mjs';

/** A page whose wasm never loads: what a reader sees while it is on its way. */
async function withoutWasm(h, fragment, viewport = { width: 1280, height: 800 }) {
  const context = await h.browser.newContext({ viewport });
  await context.route(/\.wasm$/, (route) => route.abort());
  const page = await context.newPage();
  await page.goto(`${h.url}${fragment}`, { waitUntil: 'load' });
  return { context, page };
}

const picture = (page) =>
  page.evaluate(() => {
    const fp = document.getElementById('first-paint');
    return {
      present: !!fp,
      visible: !!fp && [...fp.querySelectorAll('svg.timeline')].some((e) => e.checkVisibility({ visibilityProperty: true })),
      lanes: fp ? fp.querySelectorAll('.lane line').length : 0,
      digest: fp?.querySelector('[data-digest]')?.getAttribute('data-digest'),
    };
  });

/** Where the diagram is on screen: the first paint's picture, or the app's timeline. */
const box = (page, selector) =>
  page.locator(selector).evaluate((e) => {
    const r = e.getBoundingClientRect();
    return { x: r.x, y: r.y, width: r.width, height: r.height };
  });

/**
 * What a diagram shows, under `scope` (the picture's or the app's), where a reader sees it:
 * the axis' tick labels in view and their centres, each lane's ends and height, the cursor's
 * x (CSS pixels), each lane's name and clock reading, and the classes of what the timeline
 * draws unclipped (the app's run, clipped at the cursor, is not in view at 0).
 */
const seen = (page, scope) =>
  page.locator(scope).evaluate((root) => {
    const svg = [...root.querySelectorAll('svg.timeline')].find((e) => e.checkVisibility());
    const ticks = [...svg.querySelectorAll('.axis text')].filter((t) => t.getBoundingClientRect().width > 0);
    const texts = (sel) => [...root.querySelectorAll(sel)].map((t) => t.textContent.trim());
    const mid = (r) => r.x + r.width / 2;
    return {
      labels: ticks.map((t) => t.textContent.trim()),
      ticks: ticks.map((t) => mid(t.getBoundingClientRect())),
      lanes: [...svg.querySelectorAll('.lane line')].map((l) => {
        const r = l.getBoundingClientRect();
        return { left: r.left, right: r.right, y: r.y + r.height / 2 };
      }),
      cursor: mid(svg.querySelector('line.cursor').getBoundingClientRect()),
      names: texts('.lane-names .lane-name'),
      clocks: texts('.lane-names .clock-reading'),
      shown: [...svg.children].filter((e) => e.tagName !== 'defs' && !e.hasAttribute('clip-path')).map((e) => e.getAttribute('class') ?? e.tagName),
    };
  });

describe('the first paint', () => {
  const h = harness();

  // The words a reader sees in each copied region, space-normalised; `scope` picks the
  // copies ('#first-paint ') or the app's own (''). Not counted: words for screen readers only
  // (the copies name no controls) and the inside of a closed disclosure (the copies never
  // open). The select's other options count: they are what it offers.
  const REGIONS = ['.masthead', '.scenario-bar', '.scenario-description', '.controls', '.caption', '.legend summary', '.zoom-bar', '.guide.panel'];
  async function words(page, scope) {
    return page.evaluate(({ regions, scope }) => {
      const seen = (node) => {
        if (node.nodeType === Node.TEXT_NODE) return node.data;
        if (node.nodeType !== Node.ELEMENT_NODE || node.classList.contains('sr-only')) return '';
        const closed = node.tagName === 'DETAILS' && !node.open;
        return [...node.childNodes].filter((c) => !closed || c.tagName === 'SUMMARY').map(seen).join(' ');
      };
      const out = {};
      for (const r of regions) {
        const node = document.querySelector(scope + r);
        out[r] = node ? seen(node).replace(/\s+/g, ' ').trim() : '(missing)';
      }
      return out;
    }, { regions: REGIONS, scope });
  }

  test('the default page shows the default run before (and without) the wasm', async () => {
    const { context, page } = await withoutWasm(h, '');
    try {
      const p = await picture(page);
      assert.ok(p.visible, 'the picture is shown');
      assert.equal(p.lanes, 4);
      assert.equal(p.digest, 'f4c02eac5344b581', "the default run's digest (gc-pause)");
      await page.screenshot({ path: join(SHOTS, 'first-paint.png') });
    } finally {
      await context.close();
    }
  });

  test('the diagram does not move when the app takes the page over', async () => {
    // A wide screen and a phone: the picture's axis and lanes are placed in proportion
    // between the margins the app's drawing keeps at any width it lays itself out at (from
    // a 360 px box up), so its ticks, lanes and cursor are where the app's will be.
    for (const viewport of [{ width: 1280, height: 800 }, { width: 390, height: 844 }]) {
      const context = await h.browser.newContext({ viewport });
      try {
        // The wasm waits until the picture has been measured.
        let release;
        const held = new Promise((ok) => (release = ok));
        await context.route(/\.wasm$/, async (route) => {
          await held;
          await route.continue();
        });
        const page = await context.newPage();
        await page.goto(h.url, { waitUntil: 'domcontentloaded' });
        // Measured as a reader sees it: once the stylesheets are in.
        await page.waitForFunction(() => [...document.querySelectorAll('link[rel=stylesheet]')].every((l) => l.sheet));
        const before = await box(page, '#first-paint .timeline-frame');
        // Its copies of the controls do nothing, and nothing takes them for the app's.
        const plays = await page.getByRole('button', { name: 'Play' }).count();
        const inert = await page.locator('#first-paint [inert]').count();
        const wordsBefore = await words(page, '#first-paint ');
        const seenBefore = await seen(page, '#first-paint .diagram');
        release();
        await page.locator('section.diagram svg.timeline').waitFor();
        const after = await box(page, 'section.diagram .timeline-frame');
        const wordsAfter = await words(page, '');
        const seenAfter = await seen(page, 'section.diagram');
        const at = `${viewport.width}×${viewport.height}`;
        assert.equal(await page.locator('#first-paint').count(), 0, `${at}: the picture is gone`);
        const near = (a, b, what) => assert.ok(Math.abs(a - b) <= 1, `${at}: ${what} ${a.toFixed(1)} then ${b.toFixed(1)}`);
        near(before.x, after.x, 'left');
        near(before.y, after.y, 'top');
        near(before.height, after.height, 'height');
        near(before.width, after.width, 'width');
        assert.deepEqual(seenBefore.labels, seenAfter.labels, `${at}: the axis' ticks`);
        seenBefore.ticks.forEach((x, i) => near(x, seenAfter.ticks[i], `tick ${seenAfter.labels[i]}`));
        seenBefore.lanes.forEach((l, i) => ['left', 'right', 'y'].forEach((k) => near(l[k], seenAfter.lanes[i][k], `lane ${i} ${k}`)));
        near(seenBefore.cursor, seenAfter.cursor, 'cursor');
        await page.screenshot({ path: join(SHOTS, `first-paint-taken-over-${viewport.width}.png`) });
        assert.equal(plays, 0, `${at}: no Play button before the app's`);
        assert.equal(inert, 5, `${at}: the copies of the scenario bar, the playback bar, the legend, the zoom bar and the walkthrough are inert`);
        // The copies are markup written a second time (src/view/export/first_paint.rs): a word
        // changed in the app's views and not in the copy would show at takeover.
        for (const [region, text] of Object.entries(wordsBefore)) {
          assert.equal(text, wordsAfter[region], `${at}: the copy of ${region} says what the app's says`);
        }
      } finally {
        await context.close();
      }
    }
  });

  // Each built-in link's own picture, drawn at build time and fetched by first-paint.js:
  // the run the link names (the app's digest for it), never the default run, and as the
  // app draws it at the start — the same ticks, lanes, names and clocks, the cursor at 0,
  // none of the run (its end is for Play to show; a question's must not be drawn before the
  // reader answers).
  test('a lesson, a fix, a question or an embed shows its own run at its start before (and without) the wasm', async () => {
    const links = ['', '#s=slow-client-clock', '#s=check-then-write/fencing', '#s=progress-heartbeat', '#s=check-then-write&embed=1', '#quiz=2', '#quiz=1&embed=1'];
    for (const viewport of [{ width: 1280, height: 800 }, { width: 390, height: 844 }]) {
      for (const fragment of links) {
        const at = `${fragment || '/'} at ${viewport.width}`;
        const app = await openApp(h.browser, `${h.url}${fragment}`, { viewport }, undefined, { ready: 'section.diagram' });
        const expected = await app.page.locator('section.diagram').getAttribute('data-digest');
        const where = await seen(app.page, 'section.diagram');
        await app.context.close();
        const { context, page } = await withoutWasm(h, fragment, viewport);
        try {
          await page.waitForFunction(() => document.querySelector('#first-paint [data-digest]')?.checkVisibility({ visibilityProperty: true }), null, { timeout: 10_000 });
          const p = await picture(page);
          assert.equal(p.digest, expected, `${at}: the run the link names`);
          const shown = await seen(page, '#first-paint .diagram');
          const extra = shown.shown.filter((c) => !/^(axis|lane( client)?|cursor)$/.test(c));
          assert.deepEqual(extra, [], `${at}: the axis, the lanes and the cursor, none of the run`);
          // The same ticks in view (a narrow box leaves out the ones the player does), names
          // and clocks as the app's at the start.
          for (const k of ['labels', 'names', 'clocks']) {
            assert.deepEqual(shown[k], where[k], `${at}: the picture's ${k} are the app's at the start`);
          }
          // Where a reader sees them: the ticks, lanes and cursor. An embed's lanes are the
          // usual height in the picture, as tall as the frame has room for in the app: only
          // their ends count.
          const near = (a, b, what) => assert.ok(Math.abs(a - b) <= 1.5, `${at}: ${what} ${a.toFixed(1)} then ${b.toFixed(1)}`);
          shown.ticks.forEach((x, i) => near(x - shown.cursor, where.ticks[i] - where.cursor, `tick ${where.labels[i]}`));
          shown.lanes.forEach((l, i) => near(l.right - l.left, where.lanes[i].right - where.lanes[i].left, `lane ${i}'s length`));
          const frame = await box(page, '#first-paint .diagram');
          assert.ok(frame.width > 200 && frame.x >= 0 && frame.x + frame.width <= viewport.width, `${at}: in the page (${JSON.stringify(frame)})`);
          const name = fragment.replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '') || 'default';
          await page.screenshot({ path: join(SHOTS, `first-paint-${name}-${viewport.width}.png`) });
        } finally {
          await context.close();
        }
      }
    }
  });

  test('a link that names more than a built-in run keeps the default run hidden until the app', async () => {
    for (const fragment of ['#s=check-then-write&t=5000', '#s=no-such-lesson', '#s=gc-pause&fence=monotone']) {
      const { context, page } = await withoutWasm(h, fragment);
      try {
        await page.waitForTimeout(500);
        const p = await picture(page);
        assert.ok(p.present && !p.visible, `${fragment}: the default run stays hidden`);
      } finally {
        await context.close();
      }
    }
  });

  test("an embed's picture fits a small frame and takes the app's place", async () => {
    for (const viewport of [{ width: 320, height: 240 }, { width: 640, height: 420 }]) {
      const context = await h.browser.newContext({ viewport });
      try {
        let release;
        const held = new Promise((ok) => (release = ok));
        await context.route(/\.wasm$/, async (route) => {
          await held;
          await route.continue();
        });
        const page = await context.newPage();
        await page.goto(`${h.url}#s=check-then-write&embed=1`, { waitUntil: 'domcontentloaded' });
        await page.waitForFunction(() => document.querySelector('#first-paint.embed svg.timeline')?.checkVisibility({ visibilityProperty: true }));
        const at = `${viewport.width}×${viewport.height}`;
        const before = await box(page, '#first-paint .timeline-frame');
        assert.ok(before.x >= 0 && before.x + before.width <= viewport.width + 0.5, `${at}: the picture is inside the frame (${JSON.stringify(before)})`);
        await page.screenshot({ path: join(SHOTS, `first-paint-embed-${viewport.width}.png`) });
        release();
        await page.locator('section.diagram svg.timeline').waitFor();
        const after = await box(page, 'section.diagram .timeline-frame');
        assert.ok(Math.abs(before.y - after.y) <= 40, `${at}: the diagram starts where the picture did (${before.y.toFixed(0)} then ${after.y.toFixed(0)})`);
      } finally {
        await context.close();
      }
    }
  });

  test('once the app mounts the picture is gone, and the app draws the run the link names', async () => {
    const { context, page, problems } = await openApp(h.browser, `${h.url}#s=check-then-write&embed=1`, undefined, undefined, {
      ready: 'section.diagram',
    });
    try {
      assert.equal((await picture(page)).present, false);
      assert.equal(await page.locator('.diagram svg.timeline').count(), 1);
      assert.equal(await page.locator('section.diagram').getAttribute('data-digest'), '1202bdd6b1d00a95');
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  });
});

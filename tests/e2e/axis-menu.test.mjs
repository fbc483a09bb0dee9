// End-to-end: the time axis speaks one unit, the labels the cursor reveals are never cut
// mid-word, and a node's action menu opens next to the node, inside the viewport, with the
// keyboard's focus in it. Screenshots: target/e2e/axis-units.png, target/e2e/node-menu.png.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { SHOTS, harness, openApp, playback, until } from './lib.mjs';

const LAPTOP = { viewport: { width: 1366, height: 860 } };
const PHONE = { viewport: { width: 360, height: 640 } };
const MAIN = 'section.diagram:not(.versus) svg.timeline';

async function withApp(h, hash, options, body) {
  const { context, page, problems } = await openApp(h.browser, `${h.url}${hash}`, options);
  try {
    await page.locator(MAIN).waitFor();
    await body(page);
    assert.deepEqual(problems, [], 'nothing went wrong on the page');
  } finally {
    await context.close();
  }
}

/** The main diagram's axis labels, left to right. */
const ticks = (page) => page.locator(`${MAIN} .axis text`).allTextContents();

/** A label's unit ("s", "min"), or '' for a bare number (the axis's zero). */
const unitOf = (label) => label.trim().replace(/^[-0-9.,\s]+/, '');

/**
 * The texts of the main diagram that are partly drawn and partly hidden. A text's drawn part
 * is its box cut to the rectangles of the clip paths above it (the reveal up to the cursor,
 * and anything else the page clips with) and to the drawing's viewBox; copies of one label at
 * one place (a page may draw a label in two pieces) count together. Returns each cut text
 * with how much of it shows.
 */
function cutTexts(page) {
  return page.evaluate((sel) => {
    const svg = document.querySelector(sel);
    const vb = svg.viewBox.baseVal;
    const pieces = new Map();
    // A mark's ✓ or ✕, and the count of a mark drawn for several, are part of its shape,
    // swept by the reveal with its circle: not words.
    for (const t of svg.querySelectorAll('text:not(.glyph):not(.mark-count)')) {
      if (!t.textContent.trim() || t.getClientRects().length === 0) continue;
      const b = t.getBBox();
      if (b.width === 0) continue;
      let region = [{ x0: vb.x, y0: vb.y, x1: vb.x + vb.width, y1: vb.y + vb.height }];
      for (let el = t; el && el !== svg; el = el.parentElement) {
        const ref = el.getAttribute('clip-path');
        if (!ref) continue;
        const id = ref.match(/#([^)"']+)/)[1];
        const rects = [...svg.querySelectorAll(`clipPath[id="${id}"] rect`)].map((r) => {
          const k = r.getBBox();
          return { x0: k.x, y0: k.y, x1: k.x + k.width, y1: k.y + k.height };
        });
        region = region.flatMap((a) =>
          rects
            .map((r) => ({ x0: Math.max(a.x0, r.x0), y0: Math.max(a.y0, r.y0), x1: Math.min(a.x1, r.x1), y1: Math.min(a.y1, r.y1) }))
            .filter((r) => r.x1 > r.x0 && r.y1 > r.y0),
        );
      }
      const mid = b.y + b.height / 2;
      const key = `${t.textContent}@${Math.round(b.x)},${Math.round(b.y)}`;
      const p = pieces.get(key) ?? { text: t.textContent, x0: b.x, x1: b.x + b.width, shown: [] };
      for (const r of region) {
        if (r.y0 <= mid && mid <= r.y1 && r.x1 > b.x && r.x0 < b.x + b.width) {
          p.shown.push([Math.max(b.x, r.x0), Math.min(b.x + b.width, r.x1)]);
        }
      }
      pieces.set(key, p);
    }
    const cut = [];
    for (const p of pieces.values()) {
      // The union of the drawn pieces, left to right.
      const spans = p.shown.sort((a, b) => a[0] - b[0]);
      let shown = 0, reach = -Infinity;
      for (const [a, b] of spans) {
        if (b > reach) {
          shown += b - Math.max(a, reach);
          reach = b;
        }
      }
      const width = p.x1 - p.x0;
      if (shown > 0.5 && shown < width - 0.5) {
        cut.push({ text: p.text, shown: Math.round((shown / width) * 100) + '%' });
      }
    }
    return cut;
  }, MAIN);
}

/** The start x (drawing units) of every label in the diagram's body. */
function labelStarts(page) {
  return page.evaluate((sel) => {
    const svg = document.querySelector(sel);
    return [...svg.querySelectorAll('.body text:not(.glyph):not(.mark-count)')].map((t) => t.getBBox().x);
  }, MAIN);
}

describe('the time axis and the node menu', () => {
  const h = harness();

  test('every tick of an axis is written in one unit, in a 1-2-5 series', async () => {
    for (const [hash, unit] of [
      ['#s=ttl-shorter-than-work', 'min'],
      ['#s=gc-pause', 's'],
    ]) {
      await withApp(h, hash, LAPTOP, async (page) => {
        const labels = await ticks(page);
        assert.ok(labels.length >= 4, `${hash}: ${labels}`);
        assert.equal(labels[0], '0', `${hash}: the axis starts at a bare 0`);
        const units = new Set(labels.slice(1).map(unitOf));
        assert.deepEqual([...units], [unit], `${hash}: one unit on the axis: ${labels.join(', ')}`);
        const values = labels.map((l) => Number.parseFloat(l));
        const step = values[1];
        assert.match(String(step), /^(1|2|5|0\.1|0\.2|0\.5)0*$/, `${hash}: a 1-2-5 step: ${labels}`);
        values.forEach((v, i) => assert.ok(Math.abs(v - i * step) < 1e-9, `${hash}: evenly spaced: ${labels}`));
        if (unit === 'min') {
          const { slider } = playback(page);
          await slider.fill(String(Math.round(Number(await slider.getAttribute('max')) * 0.55)));
          await page.locator('section.diagram:not(.versus)').screenshot({ path: join(SHOTS, 'axis-units.png') });
        }
      });
    }
  });

  test('no label is cut mid-word at the cursor, wherever the cursor stops', async () => {
    for (const hash of ['#s=gc-pause', '#s=gc-pause&fence=monotone', '#s=ttl-shorter-than-work']) {
      await withApp(h, hash, LAPTOP, async (page) => {
        const { slider } = playback(page);
        const end = Number(await slider.getAttribute('max'));
        const vb = await page.evaluate((sel) => document.querySelector(sel).viewBox.baseVal.width, MAIN);
        const [x0, x1] = [112, vb - 24];
        // Stop the cursor just past the start of every label, where the reveal would cut it.
        const starts = [...new Set((await labelStarts(page)).map((x) => Math.round(x)))].sort((a, b) => a - b);
        assert.ok(starts.length > 3, `${hash}: labels to check`);
        const cut = [];
        for (const x of starts) {
          const ms = Math.round(((x + 3 - x0) * end) / (x1 - x0));
          if (ms < 0 || ms > end) continue;
          await slider.fill(String(ms));
          for (const c of await cutTexts(page)) cut.push({ at: ms, ...c });
        }
        assert.deepEqual(cut, [], `${hash}: labels cut at the cursor`);
        if (hash === '#s=gc-pause') {
          // The moment a label was once cut to "two believ": the cursor just inside the band.
          await slider.fill('31000');
          await page.locator('section.diagram:not(.versus)').screenshot({ path: join(SHOTS, 'cursor-labels.png') });
        }
      });
    }
  });

  test('at 1366×860 the storage node\'s menu opens beside it, in view, and the keyboard can use it', async () => {
    await withApp(h, '#s=gc-pause', LAPTOP, async (page) => {
      // As a reader would: scroll the stage into view, then click the node.
      const node = page.locator('svg.stage g.node[role=button][aria-label^="storage"]');
      await page.locator('svg.stage').evaluate((el) => el.scrollIntoView({ block: 'end' }));
      await node.click();
      const menu = page.getByRole('group', { name: /^Actions for storage/ });
      await menu.waitFor({ state: 'visible' });
      const [n, m] = [await node.locator('circle').boundingBox(), await menu.boundingBox()];
      const viewport = page.viewportSize();
      assert.ok(m.x >= 0 && m.y >= 0 && m.x + m.width <= viewport.width && m.y + m.height <= viewport.height,
        `the menu ${JSON.stringify(m)} lies inside the ${viewport.width}×${viewport.height} viewport`);
      const [ncx, ncy] = [n.x + n.width / 2, n.y + n.height / 2];
      const gap = Math.hypot(
        Math.max(m.x - ncx, 0, ncx - (m.x + m.width)),
        Math.max(m.y - ncy, 0, ncy - (m.y + m.height)),
      );
      assert.ok(gap <= 200, `the menu is next to the node (${Math.round(gap)} px away)`);
      assert.ok(!(ncx > m.x && ncx < m.x + m.width && ncy > m.y && ncy < m.y + m.height), 'the menu does not cover the node');
      await page.screenshot({ path: join(SHOTS, 'node-menu.png') });

      // Focus moved into the menu; Escape closes it and gives focus back to the node.
      assert.ok(await menu.evaluate((el) => el.contains(document.activeElement)), 'focus is in the menu');
      await page.keyboard.press('Tab');
      assert.ok(await menu.evaluate((el) => el.contains(document.activeElement)), 'Tab stays among its buttons');
      await page.keyboard.press('Escape');
      await until(async () => (await menu.count()) === 0, 'Escape to close the menu');
      assert.ok(await node.evaluate((el) => el === document.activeElement), 'focus is back on the node');

      // Enter on the focused node opens it again, with focus on its first action.
      await page.keyboard.press('Enter');
      await menu.waitFor({ state: 'visible' });
      assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Pause 5 s');
    });
  });

  test('in a small frame the menu still opens in view, next to its node', async () => {
    await withApp(h, '#s=gc-pause', PHONE, async (page) => {
      for (const who of ['storage', 'client 1']) {
        const node = page.locator(`svg.stage g.node[role=button][aria-label^="${who}"]`);
        await page.locator('svg.stage').evaluate((el) => el.scrollIntoView({ block: 'end' }));
        await node.click();
        const menu = page.getByRole('group', { name: new RegExp(`^Actions for ${who}`) });
        await menu.waitFor({ state: 'visible' });
        const [n, m] = [await node.locator('circle').boundingBox(), await menu.boundingBox()];
        const viewport = page.viewportSize();
        assert.ok(m.x >= 0 && m.y >= 0 && m.x + m.width <= viewport.width && m.y + m.height <= viewport.height,
          `${who}: the menu ${JSON.stringify(m)} lies inside the ${viewport.width}×${viewport.height} viewport`);
        const gap = Math.hypot(
          Math.max(m.x - (n.x + n.width), 0, n.x - (m.x + m.width)),
          Math.max(m.y - (n.y + n.height), 0, n.y - (m.y + m.height)),
        );
        assert.ok(gap <= 200, `${who}: the menu is next to the node (${Math.round(gap)} px away)`);
        await page.keyboard.press('Escape');
        await until(async () => (await menu.count()) === 0, 'Escape to close the menu');
      }
    });
  });
});

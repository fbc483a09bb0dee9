// End-to-end: the exported picture stands alone on a slide, and the diagram's legend is a
// click away. A presenter switches the fence on and exports: the SVG names the run, gives
// the verdict the app gives at the end of the run, the settings, a legend of the shapes it
// draws and a link that reopens this very run; the PNG is that picture, taller than the
// bare diagram. A learner opens "Legend" beside the diagram, reads what each shape means
// (drawn in the diagram's own colours), and closes it with Escape. The exported PNG itself
// and the open legend are saved to target/e2e/.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { SHOTS, digestOf, harness, openApp, playback, until } from './lib.mjs';

const LAPTOP = { viewport: { width: 1280, height: 900 } };

describe('export and legend', () => {
  const h = harness();

  test('the exported SVG and PNG carry the title, verdict, settings, legend and a link that reopens the run', async () => {
    const { context, page, problems } = await openApp(h.browser, h.url, { ...LAPTOP, acceptDownloads: true });
    try {
      // The fenced run: the link must say so, not just reopen the default.
      const fence = page.locator('button.control.fence');
      await page.keyboard.press('f');
      await until(async () => (await fence.getAttribute('aria-pressed')) === 'true', 'the fence on');
      const digest = await digestOf(page);
      // The verdict the app gives at the end of the run.
      await page.keyboard.press('End');
      const verdict = page.getByRole('region', { name: 'Verdict' }).getByRole('heading');
      const head = await verdict.innerText();
      assert.match(head, /^(Safe|Unsafe)/);

      await page.locator('details.io summary').click();
      const group = page.getByRole('group', { name: 'Export' });
      const download = async (name) => {
        const [d] = await Promise.all([page.waitForEvent('download'), group.getByRole('button', { name, exact: true }).click()]);
        return readFile(await d.path());
      };
      const svg = (await download('SVG')).toString('utf8');
      const seen = await page.evaluate((text) => {
        const doc = new DOMParser().parseFromString(text, 'image/svg+xml');
        const root = doc.documentElement;
        const all = (sel) => [...root.querySelectorAll(sel)].map((e) => e.textContent);
        return {
          error: doc.querySelector('parsererror')?.textContent ?? null,
          size: [root.getAttribute('width'), root.getAttribute('height')].map(Number),
          title: all('.sheet-title')[0],
          verdict: all('.sheet-verdict')[0],
          settings: all('.sheet-settings').join(' '),
          legend: all('.legend .legend-name'),
          link: root.querySelector('a')?.getAttribute('href'),
          linkText: all('.sheet-link').join(''),
          lanes: root.querySelectorAll('g.diagram g.lane').length,
        };
      }, svg);
      assert.equal(seen.error, null);
      assert.equal(seen.title, 'GC pause longer than the TTL');
      assert.equal(seen.verdict, head, 'the verdict as the app gives it at the end');
      assert.match(seen.settings, /Lock service: \w+/);
      assert.match(seen.settings, /Fence: Reject lower tokens/);
      assert.match(seen.settings, /TTL 30 s/);
      assert.match(seen.settings, /Faults: pause Client 1 /);
      for (const name of ['Lease held', 'Believes it holds the lock', 'Two believers', 'Write', 'Write rejected', 'Paused']) {
        assert.ok(seen.legend.includes(name), `legend has "${name}": ${seen.legend}`);
      }
      assert.equal(seen.lanes, 4);
      assert.equal(seen.link, page.url());
      assert.ok(seen.linkText.startsWith('Open this run: ') && seen.linkText.includes(page.url().slice(0, 60)));
      assert.ok(seen.size[0] === 960 && seen.size[1] > 272 + 200, `taller than the bare diagram: ${seen.size}`);

      // The link in the picture reopens the same run, in a browser that never saw it.
      const fresh = await openApp(h.browser, seen.link, LAPTOP);
      try {
        await until(async () => (await digestOf(fresh.page)) === digest, 'the same run from the picture\'s link');
      } finally {
        await fresh.context.close();
      }

      // The PNG: that same picture at twice its size, not the bare diagram (1920 × 544).
      const png = await download('PNG');
      await writeFile(join(SHOTS, 'export.png'), png);
      assert.equal(png.subarray(0, 8).toString('hex'), '89504e470d0a1a0a');
      const size = [png.readUInt32BE(16), png.readUInt32BE(20)];
      assert.deepEqual(size, [seen.size[0] * 2, Math.round(seen.size[1] * 2)]);
      assert.ok(size[1] > 544 + 400, `the PNG is taller than the bare diagram: ${size}`);
      // Ink in the heading band (the title and verdict) and in the legend, not just white.
      const ink = await page.evaluate(async ({ b64, legendY }) => {
        const img = new Image();
        img.src = `data:image/png;base64,${b64}`;
        await img.decode();
        const c = document.createElement('canvas');
        [c.width, c.height] = [img.naturalWidth, img.naturalHeight];
        const ctx = c.getContext('2d');
        ctx.drawImage(img, 0, 0);
        const dark = (y0, y1) => {
          const d = ctx.getImageData(0, y0, c.width, y1 - y0).data;
          let n = 0;
          for (let i = 0; i < d.length; i += 4) if (d[i + 3] > 0 && d[i] + d[i + 1] + d[i + 2] < 400) n += 1;
          return n;
        };
        return { heading: dark(0, 80), legend: dark(legendY, c.height) };
      }, { b64: png.toString('base64'), legendY: Math.round(size[1] * 0.7) });
      assert.ok(ink.heading > 2_000 && ink.legend > 2_000, `text drawn in the heading and the legend: ${JSON.stringify(ink)}`);
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  });

  test('the Legend beside the diagram opens from the keyboard, explains the shapes in their own colours, and Escape closes it', async () => {
    const { context, page, problems } = await openApp(h.browser, h.url, LAPTOP);
    try {
      const summary = page.locator('details.legend > summary');
      assert.equal(await summary.innerText(), 'Legend');
      const panel = page.getByRole('region', { name: 'Legend' });
      assert.equal(await panel.isVisible(), false);
      await summary.focus();
      await page.keyboard.press('Enter');
      await panel.waitFor({ state: 'visible' });
      const rows = panel.getByRole('listitem');
      const texts = await rows.allInnerTexts();
      assert.ok(texts.length >= 8, `one row per shape in this diagram: ${texts.length}`);
      for (const name of ['Lease held', 'Believes it holds the lock', 'Two believers', 'Stale write accepted', 'Paused', 'Lease expired']) {
        const row = rows.filter({ hasText: name });
        assert.equal(await row.count(), 1, name);
        assert.ok(await row.isVisible(), `${name} is visible`);
      }
      // Same classes, same colours: a sample is painted as the diagram paints its shape.
      const colours = await page.evaluate(() => {
        const fill = (sel) => {
          const el = document.querySelector(sel);
          return el && getComputedStyle(el).fill;
        };
        return [
          [fill('.legend-panel .band rect'), fill('section.diagram .band rect')],
          [fill('.legend-panel .bar.belief rect'), fill('section.diagram .bar.belief rect')],
          [fill('.legend-panel .mark.stale circle'), fill('section.diagram .mark.stale circle')],
        ];
      });
      for (const [sample, drawn] of colours) assert.ok(sample && sample === drawn, `${sample} = ${drawn}`);
      await page.screenshot({ path: join(SHOTS, 'legend.png') });
      // Escape closes it and leaves the focus on "Legend"; the playback did not move.
      const before = await playback(page).slider.inputValue();
      await page.keyboard.press('Escape');
      await panel.waitFor({ state: 'hidden' });
      assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Legend');
      assert.equal(await playback(page).slider.inputValue(), before);
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  });
});

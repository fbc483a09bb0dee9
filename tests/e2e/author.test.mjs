// End-to-end: the course author's embeds. A frame of each of three sizes (360 x 640,
// 640 x 420, 320 x 240) shows the diagram with no text under 10 px and the current beat's
// text without the frame itself scrolling (embed-fit.test.mjs sweeps every size from
// 280 x 240); it offers only what a reader can do there (no "Break it yourself" without a
// stage or settings; the fence switch stays on a phone, which has no F key).
// Screenshots of the three sizes go to target/e2e/.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { SHOTS, harness, openApp, playback } from './lib.mjs';

/** What a reader of the frame sees: the smallest diagram text in CSS px, whether the frame
 * scrolls, and where the beat's text is. */
const measure = (page) =>
  page.evaluate(() => {
    let smallest = Infinity;
    for (const t of document.querySelectorAll('section.diagram svg text')) {
      if (!t.getBoundingClientRect().width) continue;
      const m = t.ownerSVGElement.getScreenCTM();
      smallest = Math.min(smallest, parseFloat(getComputedStyle(t).fontSize) * (m ? m.a : 1));
    }
    const beat = document.querySelector('.guide p.beat');
    const r = beat?.getBoundingClientRect();
    return {
      smallest,
      frameScrolls: document.scrollingElement.scrollHeight > innerHeight + 1,
      beatTop: r?.top,
      beatText: beat?.innerText ?? '',
      height: innerHeight,
    };
  });

describe('the course author', () => {
  const h = harness();
  const sizes = [
    [360, 640],
    [640, 420],
    [320, 240],
  ];
  for (const [width, height] of sizes) {
    test(`a ${width}x${height} embed: legible diagram, the beat in view, the frame does not scroll`, async () => {
      const url = `${h.url}#s=gc-pause&embed=1&beat=3`;
      const { context, page, problems } = await openApp(h.browser, url, { viewport: { width, height } }, undefined, {
        ready: 'section.diagram',
      });
      try {
        const m = await measure(page);
        assert.ok(m.smallest >= 10, `smallest diagram text ${m.smallest.toFixed(1)} px`);
        assert.ok(!m.frameScrolls, 'the frame does not scroll');
        assert.match(m.beatText, /lease has run out/, 'beat 3 is shown, not only its heading');
        assert.ok(m.beatTop < m.height - 16, `the beat's text starts in view (top ${m.beatTop})`);
        // The fence switch stays reachable without a keyboard.
        assert.ok(await page.getByRole('button', { name: /^Fencing/ }).isVisible());
        await page.screenshot({ path: join(SHOTS, `embed-${width}x${height}.png`) });
        assert.deepEqual(problems, []);
      } finally {
        await context.close();
      }
    });
  }

  test('an embed offers only what the frame can do: no "Break it yourself" at the last beat', async () => {
    const url = `${h.url}#s=gc-pause&embed=1`;
    const { context, page, problems } = await openApp(h.browser, url, { viewport: { width: 720, height: 480 } }, undefined, {
      ready: 'section.diagram',
    });
    try {
      const walk = page.getByRole('region', { name: 'Walkthrough' });
      for (let k = 0; k < 7; k++) await walk.getByRole('button', { name: 'Next', exact: true }).click();
      assert.ok(await walk.getByRole('button', { name: 'Next', exact: true }).isDisabled(), 'at the last beat');
      assert.doesNotMatch(await walk.innerText(), /Break it yourself/);
      // The fixes open inside the frame, so they stay.
      assert.ok(await walk.getByRole('button', { name: /Fix it/ }).first().isVisible());
      assert.ok(await playback(page).slider.isVisible());
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  });
});

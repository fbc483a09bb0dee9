// End-to-end: the stage draws the messages in the air at the cursor, each with its label
// (`layout::packets`, which reads a message's label from the trace: the projection keeps
// only the index of the entry that sent it). In the whole app at a linked instant, and in
// the first load while it plays; its label over the nodes and its dot under them.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { harness, openApp, until } from './lib.mjs';

const LAPTOP = { viewport: { width: 1280, height: 800 } };

/** The labels of the messages drawn on the stage, once there is one (polled every `every` ms). */
const packets = (page, what, every) =>
  until(
    async () => {
      const p = await page.evaluate(() => [...document.querySelectorAll('svg.stage .packet-label')].map((t) => t.textContent));
      return p.length ? p : null;
    },
    what,
    { every },
  );

describe('messages on the stage', () => {
  const h = harness();

  test("gc-pause at 31.012 s: client 2's write with token 34 is on its way to storage", async () => {
    const { context, page, problems } = await openApp(h.browser, `${h.url}#s=gc-pause&t=31012`, LAPTOP);
    try {
      const got = await packets(page, 'a message on the stage');
      assert.deepEqual(got, ['write 34']);
      // Its label is drawn over the nodes and its dot under them, so one arriving at a
      // node neither hides the node's name nor is hidden by it.
      const order = await page.evaluate(() => {
        const all = [...document.querySelectorAll('svg.stage > *')];
        const at = (sel) => all.findIndex((el) => el.matches(sel));
        const last = (sel) => all.findLastIndex((el) => el.matches(sel));
        return { dot: at('.packet'), label: at('.packet-label'), first: at('.node'), last: last('.node') };
      });
      assert.ok(order.dot >= 0 && order.dot < order.first, `the dot under the nodes: ${JSON.stringify(order)}`);
      assert.ok(order.label > order.last, `the label over the nodes: ${JSON.stringify(order)}`);
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  });

  // Every word on the stage (a node's name, its clock and token, a message's label) at
  // 10 px or more on screen, where the stage is drawn at a scale of 0.9 or more: from 480 px
  // up. Below that the stage is scaled down to its box (0.64 at 320 px) and its text with it;
  // laying it out at its box's width, as the timeline is, is still to come.
  test('every word on the stage is drawn at 10 px or more, from 480 px to 1920 px wide', async () => {
    for (const width of [480, 640, 1024, 1280, 1920]) {
      const { context, page, problems } = await openApp(h.browser, `${h.url}#s=gc-pause&t=31012`, { viewport: { width, height: 800 } });
      try {
        await packets(page, `${width}: a message on the stage`);
        const small = await page.evaluate(() => {
          const svg = document.querySelector('svg.stage');
          const k = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
          return [...svg.querySelectorAll('text')]
            .map((t) => [t.textContent, parseFloat(getComputedStyle(t).fontSize) * k])
            .filter(([, px]) => px < 9.95)
            .map(([text, px]) => `"${text}" at ${px.toFixed(1)} px`);
        });
        assert.deepEqual(small, [], `${width} px wide`);
        assert.deepEqual(problems, []);
      } finally {
        await context.close();
      }
    }
  });

  test('the first load, playing, labels every message it draws', async () => {
    const { context, page, problems } = await openApp(h.browser, h.url, LAPTOP);
    try {
      await page.getByRole('button', { name: 'Play' }).click();
      const got = await packets(page, 'a message on the stage while playing', 20);
      assert.ok(got.every((l) => /^(acquire|grant \d+|renew(ed)? \d+|write \d+|ack|release|released|OK|reject: .+)$/.test(l)), got.join(' | '));
      // Drawn by the first load itself: the whole app was never fetched.
      const fetched = await page.evaluate(() => performance.getEntriesByType('resource').map((r) => r.name));
      assert.ok(!fetched.some((n) => /\/leaseline_bg\.wasm$/.test(n)), fetched.join(' '));
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  });
});

// End-to-end: the stage draws the messages in the air at the cursor, each with its label
// (`layout::packets`, which reads a message's label from the trace: the projection keeps
// only the index of the entry that sent it). In the whole app at a linked instant, and in
// the first load while it plays; its label over the nodes and its dot under them. Every
// word on the stage at 10 px or more and clear of the others, from 320 to 1920 px wide.

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
  // 10 px or more on screen, and no two of a node's words over another's, in the whole
  // app from a phone's width to a wide screen: at 448 px and below the stage is laid out
  // narrower (`layout::narrowed`) rather than scaled down with its box. The runs with the
  // most nodes: eight clients, and Redlock's five masters.
  // The default page too, drawn by the first load (no link): the page most phones open
  // first, whose usual stage scaled to a 320 px screen would draw its words at 7 px.
  test('every word on the stage is drawn at 10 px or more and clear of the others, from 320 px to 1920 px wide', async () => {
    for (const link of ['', 'gc-pause&t=31012', 'eight-clients&t=5000', 'redlock-clock-jump&t=20000']) {
      for (const width of [320, 360, 400, 448, 480, 640, 1024, 1920]) {
        const { context, page, problems } = await openApp(h.browser, link ? `${h.url}#s=${link}` : h.url, { viewport: { width, height: 800 } });
        try {
          await page.locator('svg.stage .node').first().waitFor();
          const bad = await page.evaluate(() => {
            const svg = document.querySelector('svg.stage');
            const k = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
            const texts = [...svg.querySelectorAll('text')].filter((t) => t.textContent.trim());
            const out = texts
              .map((t) => [t.textContent, parseFloat(getComputedStyle(t).fontSize) * k])
              .filter(([, px]) => px < 9.95)
              .map(([text, px]) => `"${text}" at ${px.toFixed(1)} px`);
            // A message's label moves over the nodes by design; the nodes' own words may
            // not touch.
            const words = texts.filter((t) => !t.classList.contains('packet-label')).map((t) => [t.textContent, t.getBoundingClientRect()]);
            for (let i = 0; i < words.length; i++) {
              for (let j = i + 1; j < words.length; j++) {
                const [a, b] = [words[i][1], words[j][1]];
                if (a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5) {
                  out.push(`"${words[i][0]}" over "${words[j][0]}"`);
                }
              }
            }
            const r = svg.getBoundingClientRect();
            for (const [text, b] of words) {
              if (b.left < r.left - 0.5 || b.right > r.right + 0.5) out.push(`"${text}" outside the stage`);
            }
            return out;
          });
          assert.deepEqual(bad, [], `${link || 'the default page'} at ${width} px`);
          assert.deepEqual(problems, []);
        } finally {
          await context.close();
        }
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

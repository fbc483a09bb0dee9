// End-to-end: the first load's memory while it plays. Its allocator (lol_alloc's free
// list, src/bin/lite.rs) never gives memory back to the page, so it must reuse what is
// freed: once the default run has played through, playing it again and again — hundreds of
// renders, each allocating and freeing — must not grow the page's wasm memory.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { harness, openApp, playback, WAIT } from './lib.mjs';

/** Keeps every wasm instance's memory where the test can read its size. */
function keepMemories() {
  globalThis.__memories = [];
  const keep = (result) => {
    const instance = result.instance ?? result;
    if (instance.exports?.memory) globalThis.__memories.push(instance.exports.memory);
    return result;
  };
  for (const name of ['instantiate', 'instantiateStreaming']) {
    const original = WebAssembly[name];
    WebAssembly[name] = (...args) => original.apply(WebAssembly, args).then(keep);
  }
}

describe("the first load's memory", () => {
  const h = harness();

  test('stays the same size while the run plays again and again', async () => {
    const { context, page, problems } = await openApp(
      h.browser,
      h.url,
      { viewport: { width: 1280, height: 800 } },
      (c) => c.addInitScript(keepMemories),
    );
    try {
      const { button } = playback(page);
      const sizes = () => page.evaluate(() => globalThis.__memories.map((m) => m.buffer.byteLength));
      // The fastest speed, so a play takes a few seconds.
      await page.locator('body').click({ position: { x: 5, y: 5 } });
      for (let i = 0; i < 8; i++) await page.keyboard.press(']');
      const playThrough = async () => {
        await page.keyboard.press('Home');
        await button('Play').click();
        await button('Pause').waitFor({ timeout: WAIT });
        await button('Play').waitFor({ timeout: WAIT });
      };
      await playThrough();
      const first = await sizes();
      assert.equal(first.length, 1, 'one wasm instance: the first load, not the whole app');
      for (let i = 0; i < 4; i++) await playThrough();
      const after = await sizes();
      console.log(`first load's wasm memory: ${first[0]} bytes after one play, ${after[0]} after five`);
      assert.equal(after.length, 1);
      assert.ok(
        after[0] <= first[0] + 65_536,
        `memory grew from ${first[0]} to ${after[0]} bytes over four more plays`,
      );
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  });
});

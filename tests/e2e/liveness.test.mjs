// End-to-end: a "safe" verdict does not hide work that never got done. Redis issues no
// fencing token, so behind a monotone fence storage refuses every write: the run is safe, and client 2 — the newest holder — never gets its
// work done. At the end the verdict says so beside "Safe", names client 2 and why, and its
// line jumps to where the job stopped. A run where every job finishes says nothing more,
// and a stale holder stopped by the fence is listed without being called a failure.
// The screenshot of the Redis run's end goes to target/e2e/liveness.png.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { SHOTS, harness, openApp, playback, until } from './lib.mjs';

const LAPTOP = { viewport: { width: 1280, height: 900 } };

/** Opens scenario `name` and jumps to its end; returns the verdict region and the caption. */
async function atEnd(h, name) {
  const opened = await openApp(h.browser, `${h.url}#s=${name}`, LAPTOP);
  const { page } = opened;
  const { slider, button } = playback(page);
  await button('Jump to end').click();
  await until(
    async () => /^t = [\d.]+s, event (\d+) of \1$/.test(await slider.getAttribute('aria-valuetext')),
    'the cursor at the last event',
  );
  const verdict = page.getByRole('region', { name: 'Verdict' });
  return { ...opened, verdict, heading: verdict.getByRole('heading'), caption: page.locator('p.caption'), slider };
}

describe('work that never completed', () => {
  const h = harness();

  test('Redis behind a fence: safe, but client 2 never got its work done, and the verdict says so', async () => {
    const { context, page, problems, verdict, heading, caption, slider } = await atEnd(h, 'redis-failover/fenced');
    try {
      assert.equal(await heading.innerText(), "Safe — but client 2's work never completed (1 write refused)");
      assert.match(await heading.innerText(), /^Safe/, 'safety is unchanged');
      const stalled = verdict.locator('li.unfinished');
      assert.equal(await stalled.count(), 1, 'one client stalled');
      assert.match(
        await stalled.innerText(),
        /client 2 aborted its job \(lost the lease\); 1 write refused: no fencing token$/,
      );
      // Client 1 lost the lock to client 2: it is listed, and not called a failure.
      const superseded = verdict.locator('li.superseded');
      assert.equal(await superseded.count(), 1);
      assert.match(await superseded.innerText(), /client 1 lost the lock to client 2 and aborted its job/);
      assert.match(await caption.innerText(), /^End of run — safe.*client 2's work never completed/);
      assert.doesNotMatch(await caption.innerText(), /stale write/, "client 2's refused write was not stale");
      await page.screenshot({ path: join(SHOTS, 'liveness.png'), fullPage: true });

      // The line's time jumps to where client 2's job stopped.
      await stalled.getByRole('button').click();
      await until(async () => (await slider.getAttribute('aria-valuetext')).startsWith('t = 3.020s'), 'the jump to the abort');
      assert.equal(await stalled.count(), 0, 'before the end, the run has not ended yet: nothing is claimed');
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  });

  test('a run where every job finishes reports nothing extra', async () => {
    const { context, problems, verdict, heading, caption } = await atEnd(h, 'clean');
    try {
      assert.equal(await heading.innerText(), 'Safe: no violation in the whole run');
      assert.equal(await verdict.locator('li.unfinished, li.superseded').count(), 0);
      assert.doesNotMatch(await caption.innerText(), /never completed/);
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  });

  test('a stale holder stopped by the fence is listed, and the verdict stays plain safe', async () => {
    const { context, problems, verdict, heading } = await atEnd(h, 'gc-pause-fenced');
    try {
      assert.equal(await heading.innerText(), 'Safe: no violation in the whole run');
      assert.equal(await verdict.locator('li.unfinished').count(), 0);
      assert.match(
        await verdict.locator('li.superseded').innerText(),
        /client 1 lost the lock to client 2 and aborted its job \(lost the lease\); 1 write refused: token 33 < 34$/,
      );
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  });
});

// End-to-end: the library's lessons walked through. Each opens from the Lessons menu, its
// walkthrough walks to its last beat, a fix (or the honest variant) is offered there, and
// the guide credits the lesson's sources. The tail-latency lesson's last beat quotes the
// share of seeded runs that ended unsafe. Screenshot: target/e2e/lessons-walk.png.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { SHOTS, digestOf, harness, openApp, until } from './lib.mjs';

const LAPTOP = { viewport: { width: 1280, height: 900 } };

// id → the title the menu shows and a word its sources line must name.
const NEW = [
  ['permanent-lock', 'A lock without a lease', 'essay'],
  ['session-checks-tradeoff', 'Sessions without health checks: safety for liveness', 'Consul docs'],
  ['vm-migration-pause', 'Not only GC: a VM migration pauses the holder', 'Distributed Lock Assumptions'],
  ['progress-heartbeat', 'Alive but stuck: the watchdog keeps renewing', 'Distributed Lock Assumptions'],
  ['watch-reachability', 'Cut off from the lock service: watch the silence', 'Chubby'],
  ['reacquire-after-loss', 'After the loss: carry on, give up, or take the lock again', 'Distributed Lock Assumptions'],
  ['idempotent-job', 'Two holders, no harm: an idempotent job', 'Kleppmann 2016'],
  ['silent-renewal-failure', 'A renewal that fails silently', 'Distributed Lock Assumptions'],
  ['tail-latency', 'A TTL above the p99 pause', 'Distributed Lock Assumptions'],
  ['stop-and-resume', 'Stop, wait, resume', 'Distributed Lock Assumptions'],
  ['release-lost', 'The release that never arrives', 'Redis docs'],
  ['random-value-release', 'The random value guards the lock, not the data', 'antirez 2016, Is Redlock safe?'],
  ['restore-from-backup', 'A token reused after a restore', 'More Dangerous'],
  ['exact-fence', 'Compare with the lock itself', 'etcd docs'],
  ['unique-constraint', 'A uniqueness constraint as the guard', 'More Dangerous'],
  ['token-wrong-resource', 'A token checked against the wrong mark', 'More Dangerous'],
  ['conditional-write', 'The redesign instead of a lock', 'Kleppmann 2016'],
];

describe('the new lessons', () => {
  const h = harness();

  test('each opens from the Lessons menu, walks to its end, offers a fix and names its sources', async () => {
    const { context, page, problems } = await openApp(h.browser, h.url, LAPTOP);
    try {
      const walk = page.getByRole('region', { name: 'Walkthrough' });
      const count = page.locator('.guide .beat-count');
      await walk.waitFor();
      for (const [id, title, source] of NEW) {
        const before = await digestOf(page);
        await page.getByRole('button', { name: 'Lessons', exact: true }).click();
        const menu = page.getByRole('navigation', { name: 'Lessons' });
        await menu.waitFor();
        await menu.getByRole('link', { name: title, exact: true }).click();
        await until(async () => (await digestOf(page)) !== before, `${id} to load`);
        assert.match(page.url(), new RegExp(`#s=${id}$`));
        const total = Number((await count.innerText()).match(/^(\d+) beats$/)[1]);
        assert.ok(total >= 3, `${id}: ${total} beats`);
        const next = walk.getByRole('button', { name: 'Next', exact: true });
        for (let k = 1; k <= total; k++) {
          await next.click();
          await until(async () => (await count.innerText()) === `beat ${k} of ${total}`, `${id} beat ${k}`);
        }
        assert.ok(await next.isDisabled(), `${id}: the last beat`);
        assert.ok((await walk.getByRole('button', { name: /^(Fix it|Narrow it|Compare): / }).count()) >= 1, `${id}: a fix`);
        const sources = await walk.locator('.sources').innerText();
        assert.match(sources, /^Sources: /, id);
        assert.ok(sources.includes(source), `${id}: ${sources}`);
        if (id === 'tail-latency') {
          const last = await walk.locator('p.beat').innerText();
          assert.match(last, /under 1000 seeds/);
          assert.match(last, /\d+ runs ended unsafe, \d+(\.\d)? %/);
          await page.screenshot({ path: join(SHOTS, 'lessons-walk.png'), fullPage: true });
        }
      }
      // A fix's note credits its lesson's sources too.
      await walk.getByRole('button', { name: /^(Fix it|Narrow it|Compare): / }).first().click();
      const fix = page.getByRole('region', { name: 'Fix' });
      await fix.waitFor();
      assert.match(await fix.locator('.sources').innerText(), /^Sources: .*More Dangerous/);
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  });
});

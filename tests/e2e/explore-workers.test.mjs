// End-to-end: Explore on several cores. The explore worker the page starts
// (the lead) starts helper workers of its own and merges their answers in order, so the
// report is the same, byte for byte, with one worker or several; and Cancel — the page
// terminating the lead — stops every worker of the search at once.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ROOT, SHOTS, harness, openApp, until } from './lib.mjs';

const LAPTOP = { viewport: { width: 1280, height: 900 } };

/** The Explore panel's request (`analysis::explore::request`) for a built-in scenario. */
async function request(file, k, kinds, clean) {
  const scenario = JSON.parse(await readFile(join(ROOT, 'src', 'teach', file), 'utf8'));
  const ttl = Math.max(0, ...scenario.clients.map((c) => c.ttl_ms ?? 0));
  const maxPause = Math.min(Math.max(2 * ttl, 1), Math.max(scenario.horizon_ms ?? 1, 1));
  return JSON.stringify({ scenario, max_faults: k, max_pause_ms: maxPause, clean, faults: kinds });
}

/**
 * Runs each request in a fresh lead worker told to search on `workers` workers in all;
 * returns each report's text and the progress messages' counts.
 */
function search(page, requests, workers) {
  return page.evaluate(
    async ({ requests, workers }) => {
      const out = [];
      for (const req of requests) {
        const w = new Worker(new URL('explore-worker.js', document.baseURI), { type: 'module' });
        const got = await new Promise((ok, fail) => {
          setTimeout(() => fail(new Error(`no report after 60 s (${workers} workers)`)), 60_000);
          const progress = [];
          w.onmessage = (e) => {
            if (e.data.kind === 'progress') progress.push(e.data.tried);
            if (e.data.kind === 'done') ok({ report: e.data.report, progress });
          };
          w.onerror = (e) => fail(new Error(`the worker failed: ${e.message}`));
          w.postMessage({ request: req, workers });
        });
        w.terminate();
        out.push(got);
      }
      return out;
    },
    { requests, workers },
  );
}

describe('explore on several workers', () => {
  const h = harness();

  test('the report is the same with one worker, two and three', async () => {
    const { context, page, problems } = await openApp(h.browser, `${h.url}#s=gc-pause`, LAPTOP);
    try {
      const all = ['pause', 'partition', 'clock', 'delay', 'restart', 'failover', 'false-positive', 'fail-renewals'];
      const requests = [
        await request('presets/gc-pause.json', 1, all, true),
        await request('library/release-lost.json', 2, ['pause', 'delay'], false),
      ];
      const one = await search(page, requests, 1);
      for (const r of one) {
        const report = JSON.parse(r.report);
        assert.equal(report.error, undefined, r.report);
        assert.equal(report.ended, 'complete');
        assert.ok(r.progress.length > 0, 'progress while it searched');
      }
      assert.ok(JSON.parse(one[1].report).schedules > 40_000, 'a search long enough to share out');
      for (const workers of [2, 3]) {
        const many = await search(page, requests, workers);
        many.forEach((r, i) => {
          assert.equal(r.report, one[i].report, `${workers} workers, request ${i}: the same report`);
          assert.deepEqual(r.progress, one[i].progress, `${workers} workers, request ${i}: the same progress`);
        });
      }
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  });

  test('the panel searches on helper workers, and Cancel stops every one of them', async () => {
    const { context, page, problems } = await openApp(h.browser, `${h.url}#s=gc-pause-fenced`, LAPTOP);
    try {
      const cores = await page.evaluate(() => navigator.hardwareConcurrency || 1);
      const expected = Math.min(Math.max(cores, 1), 4);
      await page.locator('details.panel.explore > summary').click();
      const panel = page.locator('details.panel.explore[open]');
      await panel.getByRole('combobox', { name: 'Faults added (K)' }).selectOption('3');
      await panel.getByRole('button', { name: 'Explore', exact: true }).click();
      await panel.locator('.explore-progress').waitFor();
      // The lead and its helpers (the page reports nested workers too).
      await until(async () => page.workers().length === expected, `${expected} workers search (${cores} cores)`);
      await page.waitForTimeout(500);
      await panel.scrollIntoViewIfNeeded();
      await page.screenshot({ path: join(SHOTS, 'explore-workers-running.png') });
      await panel.getByRole('button', { name: 'Cancel' }).click();
      await panel.getByText(/Cancelled after \d+ schedules/).waitFor();
      await until(async () => page.workers().length === 0, 'every worker of the search is gone');
      const after = await panel.innerText();
      await page.waitForTimeout(1000);
      assert.equal(await panel.innerText(), after, 'no progress after Cancel');
      assert.equal(page.workers().length, 0);
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  });
});

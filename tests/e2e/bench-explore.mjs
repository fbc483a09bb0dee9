// Explore benchmark (part of `make test`, beside the frame benchmark): the explore search's
// Web Worker (dist/explore-worker.js and its wasm) in headless Chromium, three figures of
// the Performance targets:
//
//   bench explore worker: gc-pause (2 clients, K = 2, pauses and delays) on W workers (C cores): N schedules in X s = R/s (target ≥ 20,000/s)
//   bench explore lessons: L lessons, K = 2, all kinds, on W workers (C cores): E over 3 s; worst A s (name), B s (name), C s (name); N schedules in T s
//   bench explore frames: N frames while a search ran for X s: p50 Y ms, p95 Z ms (target ≤ 16 ms)
//
// The first two time the worker the page starts itself (as the Explore panel does), warmed
// by a first small search, from posting a request to its report: the search alone, not the
// wasm's download. That worker (the lead) searches on as many workers as the browser has
// cores, up to four (itself and its helpers), as for the panel; BENCH_EXPLORE_WORKERS=N
// makes it use N instead (1: the lead alone, the search before it used several). Each
// figure names the number used. Each lesson is the lesson's own scenario (src/teach/library/*.json and
// the default page's gc-pause), searched as given with two added faults of every kind and
// the default lengths. The third plays the default page's run while the Explore panel
// searches it (the whole app, K = 2, without its own pause) and reads the page's per-frame
// cost (`window.leaselineFrames`, as bench-frames.mjs does) while the search runs.
//
// A measurement, not a test: slow figures do not fail it. It exits 1 only when the page or
// the worker reports an error, a search ends some other way than complete or at its budget
// of schedules, or the page cannot be driven. A search that stops at its budget (as the
// panel says, "stopped before the end: searched N of M") is reported by name beside those
// stopped at the time cap: an honest end of a search too large for the default bounds. Not
// picked up by `node --test tests/e2e/` (its name matches no test-file pattern).

import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { ROOT, launchBrowser, openApp, quantile, requireDist, serveDist, stopServer, until, urlOf } from './lib.mjs';

const TARGET_RATE = 20_000;
const TARGET_S = 3;
const TARGET_FRAME_MS = 16;
/** A lesson's search still running after this long is stopped (and counted as over). */
const CAP_S = 10;

/** The built-in lessons' scenarios: the default page's, then the library's, by file name. */
async function lessons() {
  const lib = join(ROOT, 'src', 'teach', 'library');
  const files = (await readdir(lib)).filter((f) => f.endsWith('.json')).sort();
  const out = [{ name: 'gc-pause', json: await readFile(join(ROOT, 'src', 'teach', 'presets', 'gc-pause.json'), 'utf8') }];
  for (const f of files) out.push({ name: f.replace(/\.json$/, ''), json: await readFile(join(lib, f), 'utf8') });
  return out;
}

/**
 * The request the Explore panel sends (`analysis::explore::request`): K faults of `kinds`,
 * lengths up to the panel's default (twice the longest lease, within the horizon).
 */
function request(json, k, kinds) {
  const scenario = JSON.parse(json);
  const ttl = Math.max(0, ...scenario.clients.map((c) => c.ttl_ms ?? 0));
  const maxPause = Math.min(Math.max(2 * ttl, 1), Math.max(scenario.horizon_ms ?? 1, 1));
  return JSON.stringify({ scenario, max_faults: k, max_pause_ms: maxPause, clean: false, faults: kinds });
}

const ALL = ['pause', 'partition', 'clock', 'delay', 'restart', 'failover', 'false-positive', 'fail-renewals'];

/**
 * Runs `requests` one after the other in one worker started by the page (first warmed by
 * `warm`, untimed); returns, for each, the ms from posting it to its report and the
 * report's counts — or, for a search still running after `capMs`, `{ ms: capMs, cut: true }`
 * (the worker is then replaced by a fresh, warmed one), so the benchmark's time is bounded.
 */
function inWorker(page, warm, requests, capMs, workers) {
  return page.evaluate(
    async ({ warm, requests, capMs, workers }) => {
      let worker;
      const run = (req, cap) =>
        new Promise((ok, fail) => {
          const timer = setTimeout(() => ok(null), cap);
          worker.onmessage = (e) => {
            if (e.data.kind !== 'done') return;
            clearTimeout(timer);
            ok(JSON.parse(e.data.report));
          };
          worker.onerror = (e) => fail(new Error(`the worker failed: ${e.message}`));
          worker.postMessage(workers ? { request: req, workers } : req);
        });
      const fresh = async () => {
        worker?.terminate();
        worker = new Worker(new URL('explore-worker.js', document.baseURI), { type: 'module' });
        const t0 = performance.now();
        if (!(await run(warm, 60_000))) throw new Error('the warm-up search did not end');
        return performance.now() - t0;
      };
      try {
        const startMs = await fresh();
        const out = [];
        for (const req of requests) {
          const t0 = performance.now();
          const r = await run(req, capMs);
          const ms = performance.now() - t0;
          if (!r) {
            out.push({ ms: capMs, cut: true, schedules: 0 });
            await fresh();
            continue;
          }
          if (r.error) throw new Error(`the worker refused a request: ${r.error}`);
          out.push({ ms, schedules: r.schedules, ended: r.ended, classes: r.classes.length });
        }
        return { startMs, out };
      } finally {
        worker?.terminate();
      }
    },
    { warm, requests, capMs, workers },
  );
}

/**
 * The number of workers a search uses (see the header) and the browser's core count.
 */
async function workerCount(page) {
  const cores = await page.evaluate(() => navigator.hardwareConcurrency || 1);
  const forced = Number(process.env.BENCH_EXPLORE_WORKERS);
  const workers = Number.isInteger(forced) && forced >= 1 ? forced : Math.min(Math.max(cores, 1), 4);
  return { workers, cores, forced: Number.isInteger(forced) && forced >= 1 };
}

async function main() {
  await requireDist();
  const server = await serveDist();
  let browser;
  try {
    browser = await launchBrowser();
    const url = urlOf(server);
    const laptop = { viewport: { width: 1280, height: 900 } };
    const all = await lessons();

    // One worker: a warm-up, the two-client rate, then every lesson.
    {
      const { context, page, problems } = await openApp(browser, url, laptop);
      const gc = all[0];
      const warm = request(gc.json, 1, ['pause']);
      // The rate: a clean gc-pause (without its own pause, which breaks it at once) with
      // pauses and delays, two at a time — every schedule run to the end.
      const clean = JSON.parse(gc.json);
      clean.faults = [];
      const rateReq = request(JSON.stringify(clean), 2, ['pause', 'delay']);
      const { workers, cores, forced } = await workerCount(page);
      const n = forced ? workers : undefined;
      const { startMs, out: [rate] } = await inWorker(page, warm, [rateReq], 120_000, n);
      const { out: each } = await inWorker(page, warm, all.map((l) => request(l.json, 2, ALL)), CAP_S * 1000, n);
      const on = `on ${workers} worker${workers === 1 ? '' : 's'} (${cores} cores${forced ? ', BENCH_EXPLORE_WORKERS' : ''})`;
      await context.close();
      if (problems.length) {
        console.error(`bench explore: the page reported problems:\n  ${problems.join('\n  ')}`);
        return 1;
      }
      const unfinished = all.filter((_, i) => !each[i].cut && !['complete', 'budget'].includes(each[i].ended)).map((l) => l.name);
      if (rate.cut || unfinished.length) {
        console.error(`bench explore: searches that stopped short: ${[...unfinished, ...(rate.cut ? ['the rate'] : [])].join(', ')}`);
        return 1;
      }
      const perS = Math.round(rate.schedules / (rate.ms / 1000));
      console.log(
        `bench explore worker: gc-pause without its own pause (2 clients, K = 2, pauses and delays) ${on}: ` +
          `${rate.schedules} schedules in ${(rate.ms / 1000).toFixed(2)} s = ${perS}/s ` +
          `(target ≥ ${TARGET_RATE}/s in one worker; the worker's start and a first small search: ${(startMs / 1000).toFixed(2)} s)`,
      );
      const timed = all.map((l, i) => ({ name: l.name, ...each[i] })).sort((a, b) => b.ms - a.ms);
      const over = timed.filter((t) => t.ms > TARGET_S * 1000).length;
      const cut = timed.filter((t) => t.cut).length;
      const budget = timed.filter((t) => t.ended === 'budget');
      const done = timed.filter((t) => !t.cut);
      const total = done.reduce((s, t) => s + t.ms, 0);
      const schedules = done.reduce((s, t) => s + t.schedules, 0);
      const one = (t) => (t.cut ? `> ${CAP_S} s (${t.name}, stopped)` : `${(t.ms / 1000).toFixed(2)} s (${t.name}, ${t.schedules} schedules)`);
      console.log(
        `bench explore lessons: ${timed.length} lessons as given, K = 2, all kinds, ${on}: ${over} over ${TARGET_S} s ` +
          `(target 0), ${cut} stopped at ${CAP_S} s, ${budget.length} at the search's budget` +
          `${budget.length ? ` (${budget.map((t) => `${t.name}: ${t.schedules} schedules`).join(', ')})` : ''}; worst ${timed.slice(0, 3).map(one).join(', ')}; ` +
          `the ${done.length} that ended: ${schedules} schedules in ${(total / 1000).toFixed(1)} s`,
      );
    }

    // The page's frames while the panel searches the run it plays.
    {
      const { context, page, problems } = await openApp(browser, `${url}#s=gc-pause`, laptop);
      const panel = page.locator('details.panel.explore');
      await panel.locator('summary').click();
      await panel.getByRole('checkbox', { name: "Without the scenario's own faults" }).check();
      await panel.getByRole('combobox', { name: 'Faults added (K)' }).selectOption('2');
      const toolbar = page.getByRole('toolbar', { name: 'Playback' });
      await page.evaluate(() => {
        window.leaselineFrames = [];
      });
      await toolbar.getByRole('button', { name: 'Play', exact: true }).click();
      const t0 = Date.now();
      await panel.getByRole('button', { name: 'Explore', exact: true }).click();
      await panel.locator('.explore-result').waitFor({ timeout: 120_000 });
      const searchS = (Date.now() - t0) / 1000;
      const frames = await page.evaluate(() => window.leaselineFrames ?? []);
      const pause = toolbar.getByRole('button', { name: 'Pause', exact: true });
      if (await pause.count()) await pause.click();
      await context.close();
      if (problems.length) {
        console.error(`bench explore: the page reported problems:\n  ${problems.join('\n  ')}`);
        return 1;
      }
      const sorted = frames.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
      const fmt = (x) => (Number.isFinite(x) ? x.toFixed(2) : 'n/a');
      console.log(
        `bench explore frames: ${sorted.length} frames while the panel searched for ${searchS.toFixed(1)} s ` +
          `(gc-pause, K = 2, without its own pause, playing): p50 ${fmt(quantile(sorted, 0.5))} ms, ` +
          `p95 ${fmt(quantile(sorted, 0.95))} ms (target ≤ ${TARGET_FRAME_MS} ms)`,
      );
    }
    return 0;
  } finally {
    await browser?.close();
    await stopServer(server);
  }
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(`bench explore: ${err.stack ?? err}`);
    process.exit(1);
  },
);

// The explore search's Web Workers: loads the search's own wasm
// (leaseline-explore.js beside this file). The worker the page starts is the *lead*: it
// runs one request per message, posting progress as it goes (with the ways it breaks found
// since the last message, as JSON text) and the report at the end. On a machine with
// several cores it starts helpers — more workers running this same file — hands them
// chunks of schedules and merges their answers in order (src/bin/explore_worker.rs), so
// the report is the same whatever their number. The page cancels by terminating the lead;
// its helpers end with it.
//
// A message to the lead: the request's text, or { request, workers } to choose how many
// workers search in all (the lead included; a test compares 1 with several).
import init, { Lead, Helper } from './leaseline-explore.js';

const ready = init({ module_or_path: new URL('leaseline-explore_bg.wasm', import.meta.url) });

/** Schedules per chunk: a helper's, and the lead's own between two looks at its mail. */
const CHUNK = 96;
const OWN = 48;
/** Chunks a helper holds at once, so it never waits for the lead to finish its own. */
const DEPTH = 2;

/** Workers in all: one per core, up to four; a single core searches in the lead alone. */
const defaultWorkers = () => Math.min(Math.max(navigator.hardwareConcurrency || 1, 1), 4);

/** A task after the messages already waiting (setTimeout would add a clamp of 4 ms). */
const turn = (() => {
  const ch = new MessageChannel();
  const waiting = [];
  ch.port1.onmessage = () => waiting.shift()?.();
  return () =>
    new Promise((ok) => {
      waiting.push(ok);
      ch.port2.postMessage(0);
    });
})();

let helper = null;

async function lead(request, workers) {
  let x;
  try {
    x = new Lead(request, (tried, total, violating, found) =>
      self.postMessage({ kind: 'progress', tried, total, violating, found }),
    );
  } catch (e) {
    self.postMessage({ kind: 'done', report: String(e) });
    return;
  }
  const helpers = [];
  let wake = null;
  let failed = null;
  // Feeds each helper up to DEPTH chunks, in job order.
  const feed = () => {
    for (const h of helpers) {
      while (h.out < DEPTH) {
        const words = x.take(CHUNK);
        if (!words) return;
        h.out += 1;
        h.w.postMessage({ kind: 'chunk', words }, [words.buffer]);
      }
    }
  };
  for (let i = 1; i < workers; i += 1) {
    const w = new Worker(new URL(import.meta.url), { type: 'module' });
    const h = { w, out: 0 };
    w.onmessage = (e) => {
      h.out -= 1;
      if (e.data.error) failed = e.data.error;
      else x.give(e.data.words);
      feed();
      wake?.();
    };
    w.onerror = (e) => {
      failed = `a helper failed: ${e.message}`;
      wake?.();
    };
    w.postMessage({ kind: 'helper', request });
    helpers.push(h);
  }
  try {
    while (!x.ended() && !failed) {
      feed();
      if (x.own(OWN)) {
        await turn();
      } else if (helpers.some((h) => h.out > 0)) {
        await new Promise((ok) => {
          wake = ok;
        });
        wake = null;
      } else {
        break;
      }
    }
  } finally {
    for (const h of helpers) h.w.terminate();
  }
  const report = failed ? JSON.stringify({ error: failed }) : x.report();
  x.free();
  self.postMessage({ kind: 'done', report });
}

self.onmessage = async (e) => {
  await ready;
  const m = e.data;
  if (typeof m === 'string') return lead(m, defaultWorkers());
  if (m.kind === 'helper') {
    helper = new Helper(m.request);
    return undefined;
  }
  if (m.kind === 'chunk') {
    try {
      const words = helper.evaluate(m.words);
      self.postMessage({ words }, [words.buffer]);
    } catch (err) {
      self.postMessage({ error: String(err) });
    }
    return undefined;
  }
  const n = Number.isInteger(m.workers) && m.workers >= 1 ? Math.min(m.workers, 64) : defaultWorkers();
  return lead(m.request, n);
};

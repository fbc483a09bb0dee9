// Time-to-first-diagram benchmark (part of `make test`, after the frame benchmark): in one run and under the same conditions — files served gzip-encoded, Chromium
// throttled through the DevTools protocol to Chrome's "Slow 4G" preset (150 ms round trip,
// 1.6 Mbit/s down, 750 kbit/s up), a fresh context each load (nothing cached) — it loads
// each of these links:
//
//   - Leaseline's default page, a lesson, a fix, an interview question, and two embeds
//     (a lesson's and a question's): the time to the first diagram (the timeline's lanes,
//     whether the picture drawn at build time or the app's own), the run that diagram
//     shows — which must be the one the link names, never another first — and the time
//     until Play responds (a click on Play turns it into Pause);
//   - RaftScope's page (../shared/anchors/raftscope, its exact files): the time to its first
//     diagram (the ring's server circles),
//
// each RUNS times, and prints the medians of each link with its ratios to RaftScope:
//
//   bench first paint: <link> first diagram X ms = R×, play Y ms = P× …
//
// It fails when a link shows another run first, when a link's first diagram comes later
// than RaftScope's (above 1.0×), when Chromium warns of a preload the page never used, or
// when a page reports an error or cannot be driven. Play is measured against its 2.0×
// target and marked when above it: the links' player (which plays a lesson, a fix, a
// question and an embed of one) does not yet answer within it, so it is printed, not
// failed.

import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { launchBrowser, requireDist, ROOT, serveDist, stopServer, UNUSED_PRELOAD, urlOf } from './lib.mjs';

const RUNS = 3;
const SLOW_4G = {
  offline: false,
  latency: 150,
  downloadThroughput: (1.6 * 1_000_000) / 8,
  uploadThroughput: (750 * 1_000) / 8,
};
/**
 * RaftScope's exact page: `../shared/anchors/raftscope/` beside the project, found by
 * walking up from it (a clone elsewhere still finds the team's copy), or the folder
 * LEASELINE_RAFTSCOPE names. `null` when there is none: the benchmark then measures ours
 * alone and says so.
 */
function findRaftScope() {
  const tail = join('shared', 'anchors', 'raftscope');
  const candidates = [process.env.LEASELINE_RAFTSCOPE];
  for (let dir = ROOT; ; dir = dirname(dir)) {
    candidates.push(join(dir, tail), join(dir, 'work', tail));
    if (dirname(dir) === dir) break;
  }
  return candidates.find((c) => c && existsSync(join(c, 'index.html'))) ?? null;
}
const RAFTSCOPE = findRaftScope();

/** Records, in the page, when a selector first matches (ms since navigation start). */
function watch(marks) {
  window.__firstSeen = {};
  // Nothing is painted before the head's stylesheets have loaded (they block rendering),
  // though the parser may already have built the elements; an element counts only once
  // every stylesheet is in (a link's `sheet` is set when it has loaded).
  const styled = () => [...document.querySelectorAll('link[rel=stylesheet]')].every((l) => l.sheet);
  const check = () => {
    if (!styled()) return;
    for (const [name, sel] of Object.entries(marks)) {
      if (window.__firstSeen[name] === undefined) {
        // The first one a reader can see: a picture kept hidden (visibility) does not count.
        const el = [...document.querySelectorAll(sel)].find((e) => e.checkVisibility({ visibilityProperty: true }));
        if (el) window.__firstSeen[name] = { at: performance.now(), digest: el.closest('[data-digest]')?.getAttribute('data-digest') ?? null };
      }
    }
  };
  new MutationObserver(check).observe(document, { subtree: true, childList: true, attributes: true });
  document.addEventListener('readystatechange', check);
  // A stylesheet's load is no DOM mutation: look again when one arrives.
  document.addEventListener('load', check, true);
}

/** One throttled load: the first-diagram time, and the Play time when `play` is given. */
async function load(browser, url, marks, { play = false, settle = 0 } = {}) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const problems = [];
  try {
    await context.addInitScript(watch, marks);
    const page = await context.newPage();
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(`console error: ${m.text()}`);
      if (UNUSED_PRELOAD.test(m.text())) problems.push(`console warning: ${m.text()}`);
    });
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    await cdp.send('Network.emulateNetworkConditions', SLOW_4G);
    await page.goto(url, { waitUntil: 'commit' });
    await page.waitForFunction(() => window.__firstSeen?.diagram !== undefined, null, { timeout: 60_000, polling: 20 });
    let played = null;
    if (play) {
      // Click Play as soon as there is one, again every 20 ms, until it turns into Pause.
      await page.waitForFunction(
        () => {
          if (document.querySelector('button[aria-label="Pause"]')) return true;
          document.querySelector('button[aria-label="Play"]')?.click();
          return false;
        },
        null,
        { timeout: 60_000, polling: 20 },
      );
      played = await page.evaluate(() => performance.now());
    }
    // Chromium warns of an unused preload a few seconds after the load event.
    if (settle) await page.waitForTimeout(settle);
    const seen = await page.evaluate(() => window.__firstSeen.diagram);
    if (problems.length) throw new Error(problems.join('\n'));
    return { diagram: seen.at, digest: seen.digest, played };
  } finally {
    await context.close();
  }
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** The links measured: the default page and one of each kind a reader shares. */
const LINKS = [
  ['default page', ''],
  ['lesson', '#s=slow-client-clock'],
  ['fix', '#s=check-then-write/fencing'],
  ['question', '#quiz=2'],
  ['embed of a lesson', '#s=check-then-write&embed=1'],
  ['embed of a question', '#quiz=1&embed=1'],
  ['embed with options', '#s=gc-pause-fenced&embed=1&view=diagram'],
];

async function main() {
  await requireDist();
  const ours = await serveDist({ gzip: true });
  const peer = RAFTSCOPE ? await serveDist({ dir: RAFTSCOPE, gzip: true }) : null;
  let browser;
  try {
    browser = await launchBrowser();
    // The build-time picture (a div) or the app's own diagram (a section), whichever is first.
    const lanes = { diagram: '.diagram svg.timeline .lane line' };
    const rows = new Map(LINKS.map(([label]) => [label, []]));
    const raft = [];
    for (let i = 0; i < RUNS; i++) {
      for (const [label, hash] of LINKS) {
        // The last round waits out Chromium's unused-preload warning on every link.
        const settle = i === RUNS - 1 ? 4_000 : 0;
        rows.get(label).push(await load(browser, `${urlOf(ours)}${hash}`, lanes, { play: true, settle }));
      }
      if (peer) raft.push(await load(browser, urlOf(peer), { diagram: '#servers circle' }));
    }
    const m = (rs, k) => median(rs.map((r) => r[k]));
    const ms = (x) => `${Math.round(x)} ms`;
    const failures = [];
    for (const [label, hash] of LINKS) {
      const expected = await expectedDigest(browser, `${urlOf(ours)}${hash}`);
      const wrong = rows.get(label).find((r) => r.digest !== expected);
      if (wrong) failures.push(`${label} (${hash || '/'}): its first diagram showed run ${wrong.digest}, not ${expected}`);
    }
    const peerMs = peer ? m(raft, 'diagram') : null;
    const lines = LINKS.map(([label, hash]) => {
      const [first, play] = [m(rows.get(label), 'diagram'), m(rows.get(label), 'played')];
      if (!peer) return `  ${label} (${hash || '/'}): first diagram ${ms(first)}, play ${ms(play)}`;
      const [r, p] = [first / peerMs, play / peerMs];
      if (r > 1.0) failures.push(`${label} (${hash || '/'}): first diagram ${r.toFixed(2)}× RaftScope's, above 1.0×`);
      return (
        `  ${label} (${hash || '/'}): first diagram ${ms(first)} = ${r.toFixed(2)}×, ` +
        `play ${ms(play)} = ${p.toFixed(2)}×${p > 2.0 ? ' (above the 2.0× target)' : ''}`
      );
    });
    const tail = peer
      ? `RaftScope's first diagram ${ms(peerMs)}`
      : `RaftScope not found (no shared/anchors/raftscope above ${ROOT}; set LEASELINE_RAFTSCOPE), so no ratio`;
    console.log(`bench first paint (Slow 4G, gzip, median of ${RUNS}); ${tail}:\n${lines.join('\n')}`);
    for (const f of failures) console.error(`bench first paint: ${f}`);
    return failures.length ? 1 : 0;
  } finally {
    await browser?.close();
    await stopServer(ours);
    if (peer) await stopServer(peer);
  }
}

/** The digest of the run a link names, once the app has settled on it (no throttling). */
async function expectedDigest(browser, url) {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await page.goto(url);
    const d = page.locator('section.diagram[data-digest]').first();
    await d.waitFor();
    await page.waitForTimeout(300);
    return d.getAttribute('data-digest');
  } finally {
    await context.close();
  }
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(`bench first paint: ${err.stack ?? err}`);
    process.exit(1);
  },
);

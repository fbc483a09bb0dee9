// Time-to-first-diagram benchmark (part of `make test`, after the frame benchmark): in one run and under the same conditions — files served gzip-encoded, Chromium
// throttled through the DevTools protocol to Chrome's "Slow 4G" preset (150 ms round trip,
// 1.6 Mbit/s down, 750 kbit/s up), a fresh context each load (nothing cached) — it loads:
//
//   - Leaseline's default page: the time to its first diagram (the timeline's lanes), and
//     the time until Play responds (a click on Play turns it into Pause);
//   - an embed of another scenario (`#s=check-then-write&embed=1`): the same two times, and
//     the run its first diagram shows, which must be the one the link names — never the
//     default run first;
//   - RaftScope's page (../shared/anchors/raftscope, its exact files): the time to its first
//     diagram (the ring's server circles),
//
// each RUNS times, and prints the medians with the ratio to RaftScope:
//
//   bench first paint: Leaseline X ms (play Y ms), embed X ms (play Y ms), RaftScope Z ms;
//     first diagram X/Z = R×, play Y/Z = P× (Slow 4G, gzip, median of 3)
//
// A measurement, not a test: slow loads do not fail it (absolute times on a shared machine
// drift; the ratio is the figure). It exits 1 only when a page reports an error, an embed
// shows the wrong run first, or a page cannot be driven.

import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { launchBrowser, requireDist, ROOT, serveDist, stopServer, urlOf } from './lib.mjs';

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
async function load(browser, url, marks, { play = false } = {}) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const problems = [];
  try {
    await context.addInitScript(watch, marks);
    const page = await context.newPage();
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    page.on('console', (m) => m.type() === 'error' && problems.push(`console error: ${m.text()}`));
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
    const seen = await page.evaluate(() => window.__firstSeen.diagram);
    if (problems.length) throw new Error(problems.join('\n'));
    return { diagram: seen.at, digest: seen.digest, played };
  } finally {
    await context.close();
  }
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main() {
  await requireDist();
  const ours = await serveDist({ gzip: true });
  const peer = RAFTSCOPE ? await serveDist({ dir: RAFTSCOPE, gzip: true }) : null;
  let browser;
  try {
    browser = await launchBrowser();
    // The build-time picture (a div) or the app's own diagram (a section), whichever is first.
    const lanes = { diagram: '.diagram svg.timeline .lane line' };
    // The digest the embed must show first: the named scenario's, read unthrottled.
    const embedUrl = `${urlOf(ours)}#s=check-then-write&embed=1`;
    const rows = { page: [], embed: [], raft: [] };
    for (let i = 0; i < RUNS; i++) {
      rows.page.push(await load(browser, urlOf(ours), lanes, { play: true }));
      rows.embed.push(await load(browser, embedUrl, lanes, { play: true }));
      if (peer) rows.raft.push(await load(browser, urlOf(peer), { diagram: '#servers circle' }));
    }
    const expected = await expectedDigest(browser, embedUrl);
    const wrong = rows.embed.filter((r) => r.digest !== expected);
    if (wrong.length) {
      console.error(`bench first paint: the embed's first diagram showed run ${wrong[0].digest}, not ${expected}`);
      return 1;
    }
    const m = (rs, k) => median(rs.map((r) => r[k]));
    const [page, pagePlay, embed, embedPlay] = [
      m(rows.page, 'diagram'),
      m(rows.page, 'played'),
      m(rows.embed, 'diagram'),
      m(rows.embed, 'played'),
    ];
    const ms = (x) => `${Math.round(x)} ms`;
    if (!peer) {
      console.log(
        `bench first paint: Leaseline ${ms(page)} (play ${ms(pagePlay)}), embed ${ms(embed)} ` +
          `(play ${ms(embedPlay)}); RaftScope not found (no shared/anchors/raftscope above ` +
          `${ROOT}; set LEASELINE_RAFTSCOPE), so no ratio (Slow 4G, gzip, median of ${RUNS})`,
      );
      return 0;
    }
    const raft = m(rows.raft, 'diagram');
    console.log(
      `bench first paint: Leaseline ${ms(page)} (play ${ms(pagePlay)}), embed ${ms(embed)} ` +
        `(play ${ms(embedPlay)}), RaftScope ${ms(raft)}; first diagram ${(page / raft).toFixed(2)}×, ` +
        `play ${(pagePlay / raft).toFixed(2)}× RaftScope's first diagram (Slow 4G, gzip, median of ${RUNS})`,
    );
    return 0;
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

import { launchBrowser, serveDist, stopServer, urlOf } from './lib.mjs';
const ours = await serveDist({ dir: '/tmp/p/distp', gzip: true });
const browser = await launchBrowser();
const agg = new Map(), incl = new Map(), callers = new Map();
for (let run = 0; run < 5; run++) {
const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
await context.addInitScript(() => {
  window.__m = {};
  const mark = (k) => { if (!window.__m[k]) window.__m[k] = performance.now(); };
  const is = WebAssembly.instantiateStreaming;
  WebAssembly.instantiateStreaming = async (...a) => { const r = await is(...a); mark('instEnd'); return r; };
  new MutationObserver(() => { if (document.querySelector('button[aria-label="Play"]')) mark('play'); }).observe(document, { subtree: true, childList: true });
});
const page = await context.newPage();
const cdp = await context.newCDPSession(page);
await cdp.send('Profiler.enable'); await cdp.send('Profiler.setSamplingInterval', { interval: 100 }); await cdp.send('Profiler.start');
await page.goto(urlOf(ours));
await page.waitForFunction(() => window.__m.play, null, { polling: 20 });
await page.waitForTimeout(300);
const { profile } = await cdp.send('Profiler.stop');
const m = await page.evaluate(() => window.__m);
const byId = new Map(profile.nodes.map(n => [n.id, n]));
const parent = new Map(); for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const nowEnd = await page.evaluate(() => performance.now());
let acc = 0; const total = profile.timeDeltas.reduce((a, b) => a + b, 0);
// profile.endTime corresponds to roughly nowEnd; map sample times
const endUs = profile.endTime; 
let t = profile.startTime;
profile.samples.forEach((id, i) => {
  t += profile.timeDeltas[i];
  const pt = nowEnd - (endUs - t) / 1000;
  if (pt < m.instEnd || pt > m.play + 250) return;
  const d = profile.timeDeltas[i] / 1000;
  const n = byId.get(id); const k = n.callFrame.functionName.slice(0, 110) || n.callFrame.url.split('/').pop();
  agg.set(k, (agg.get(k) ?? 0) + d);
  const leaf = n.callFrame.functionName;
  if (/createTextNode|FilterMap|createElementNS/.test(leaf)) {
    const chain = [];
    for (let x = parent.get(id); x && chain.length < 40; x = parent.get(x)) { const f = byId.get(x).callFrame.functionName; if (/leaseline/.test(f)) { chain.push(f.slice(0, 90)); if (chain.length >= 2) break; } }
    const key = leaf.slice(0, 30) + ' <= ' + chain.join(' <= ');
    callers.set(key, (callers.get(key) ?? 0) + d);
  }
  const seen = new Set();
  for (let x = id; x; x = parent.get(x)) { const f = byId.get(x).callFrame.functionName.slice(0, 110); if (!seen.has(f)) { seen.add(f); incl.set(f, (incl.get(f) ?? 0) + d); } }
});
await context.close();
}
console.log('CALLERS'); console.log([...callers].sort((a, b) => b[1] - a[1]).slice(0, 25).map(([k, v]) => (v/5).toFixed(2) + ' ' + k).join('\n'));
console.log('SELF'); console.log([...agg].sort((a, b) => b[1] - a[1]).slice(0, 30).map(([k, v]) => (v/5).toFixed(2) + ' ' + k).join('\n'));
console.log('INCL'); console.log([...incl].sort((a, b) => b[1] - a[1]).slice(0, 60).map(([k, v]) => (v/5).toFixed(2) + ' ' + k).join('\n'));
await browser.close(); await stopServer(ours);

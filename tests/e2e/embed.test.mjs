// End-to-end: sharing and embedding — a shared link opened in a fresh browser gives the same
// cursor, verdict and digest; Back and Forward move between states; a malformed fragment
// gives a message, the default scenario and no console error; the example host page
// (examples/host.html, served from another origin) drives an embed with postMessage and
// hears the violation; exports and a refused import. Screenshots of embed mode at 320x240
// and of the share dialog go to target/e2e/.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { SHOTS, digestOf, harness, openApp, playback, serveExamples, stopServer, until, urlOf, WAIT } from './lib.mjs';

const LAPTOP = { viewport: { width: 1280, height: 900 } };

function parts(page) {
  return {
    ...playback(page),
    digest: () => digestOf(page),
    verdict: () => page.getByRole('region', { name: 'Verdict' }).getByRole('heading').innerText(),
  };
}

/** What a reader sees that a link must restore. */
async function snapshot(page) {
  const p = parts(page);
  return { t: await p.slider.inputValue(), verdict: await p.verdict(), digest: await p.digest() };
}

describe('share and embed', () => {
  const h = harness();

  test('a shared link opens the same run, cursor and verdict in a fresh browser; Back and Forward walk the states', async () => {
    const { context, page, problems } = await openApp(h.browser, `${h.url}#s=check-then-write`, LAPTOP);
    let link;
    let seen;
    try {
      const p = parts(page);
      await page.getByRole('button', { name: 'Fencing: off' }).click();
      for (let i = 0; i < 4; i++) await p.button('Next notable event').click();
      // Inject a fault from the stage: the scenario is now custom and travels in the link.
      await page.locator('svg.stage g[role=button][aria-label^="client 1:"]').click();
      await page.getByRole('group', { name: /^Actions for client 1/ }).getByRole('button', { name: 'Clock +10 s', exact: true }).click();
      await until(async () => /sc=/.test(page.url()), 'the custom scenario in the link');
      seen = await snapshot(page);
      link = page.url();
      // Back twice: before the fault (named, fenced), then before the fence (unfenced).
      await page.goBack();
      await until(async () => /s=check-then-write&fence=monotone/.test(page.url()), 'back to the fenced lesson');
      assert.ok(await page.getByRole('button', { name: 'Fencing: on' }).isVisible());
      await page.goBack();
      await until(async () => (await page.getByRole('button', { name: 'Fencing: off' }).count()) === 1, 'back to unfenced');
      // One step at a time: each Forward waits for the state it lands on, since the page
      // answers a popstate by restoring that state, and a second Forward sent before the
      // first is answered can race it on a loaded machine.
      await page.goForward();
      await until(async () => /s=check-then-write&fence=monotone/.test(page.url()), 'forward to the fenced lesson');
      await until(async () => (await page.getByRole('button', { name: 'Fencing: on' }).count()) === 1, 'the fenced lesson drawn');
      await page.goForward();
      await until(async () => (await parts(page).digest()) === seen.digest, 'forward to the edited run');
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
    const fresh = await openApp(h.browser, link, LAPTOP);
    try {
      await until(async () => (await parts(fresh.page).digest()) === seen.digest, 'the same run from the link');
      assert.deepEqual(await snapshot(fresh.page), seen);
      assert.deepEqual(fresh.problems, []);
    } finally {
      await fresh.context.close();
    }
  });

  test('a malformed fragment shows a message, falls back to the default scenario, logs nothing', async () => {
    for (const [frag, key] of [
      ['#s=gc-pause&t=abc', 't:'],
      ['#sc=!!!', 'sc:'],
      ['#s=gc-pause&fence=maybe', 'fence:'],
      ['#%%%', 'link:'],
    ]) {
      const { context, page, problems } = await openApp(h.browser, `${h.url}${frag}`, LAPTOP);
      try {
        const alert = page.getByRole('alert');
        await alert.waitFor();
        assert.ok((await alert.innerText()).includes(key), `${frag}: ${await alert.innerText()}`);
        assert.match(await page.getByRole('combobox', { name: 'Scenario' }).inputValue(), /^gc-pause$/);
        assert.deepEqual(problems, [], frag);
      } finally {
        await context.close();
      }
    }
  });

  test('the example host page embeds the app, sends play and seek, and hears the violation', async () => {
    const examples = await serveExamples();
    try {
      const host = `${urlOf(examples)}host.html?app=${encodeURIComponent(h.url)}`;
      const { context, page, problems } = await openApp(h.browser, host, LAPTOP, null, { ready: 'h1' });
      try {
        const frame = page.frameLocator('iframe[title]');
        await frame.getByRole('toolbar', { name: 'Playback' }).waitFor();
        await until(() => page.evaluate(() => window.received.some((e) => e.type === 'ready')), 'ready');
        for (let i = 0; i < 6; i++) await frame.locator('body').press(']');
        await page.getByRole('button', { name: 'Play' }).click();
        const violation = await until(
          () => page.evaluate(() => window.received.find((e) => e.type === 'violation')),
          'the violation event',
          { timeout: WAIT },
        );
        assert.equal(violation.kind, 'stale_write');
        assert.equal(violation.t_ms, 50_005, 'the stale write lands at t = 50.005 s');
        await page.getByRole('button', { name: 'Jump to t = 30 s' }).click();
        await until(
          () => page.evaluate(() => window.received.some((e) => e.type === 'cursor' && e.t_ms === 30_000)),
          'the cursor at 30 s',
        );
        assert.equal(await frame.getByRole('slider', { name: 'Time' }).inputValue(), '30000');
        // A bad message is answered with an error naming the field, and changes nothing.
        await page.evaluate(() =>
          document.querySelector('iframe').contentWindow.postMessage({ leaseline: 1, type: 'seek', t_ms: 'soon' }, '*'),
        );
        const err = await until(() => page.evaluate(() => window.received.find((e) => e.type === 'error')), 'the error event');
        assert.match(err.message, /^t_ms:/);
        await page.getByRole('button', { name: 'Show it with fencing' }).click();
        await until(async () => (await frame.getByRole('button', { name: 'Fencing: on' }).count()) === 1, 'the fenced run');
        assert.deepEqual(problems, []);
      } finally {
        await context.close();
      }
    } finally {
      await stopServer(examples);
    }
  });

  test('embed mode fits 320x240; the share dialog gives a link and an iframe snippet with a title', async () => {
    const small = await openApp(h.browser, `${h.url}#s=gc-pause&embed=1`, { viewport: { width: 320, height: 240 } });
    try {
      const { page } = small;
      assert.equal(await page.locator('.masthead-name').count(), 0, 'no site chrome');
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      assert.ok(overflow <= 0, `sideways scroll of ${overflow}px`);
      await page.screenshot({ path: join(SHOTS, 'embed-320x240.png') });
      assert.deepEqual(small.problems, []);
    } finally {
      await small.context.close();
    }
    const { context, page, problems } = await openApp(h.browser, h.url, LAPTOP);
    try {
      await page.getByRole('button', { name: 'Share', exact: true }).click();
      const dialog = page.getByRole('region', { name: 'Share' });
      const link = await dialog.getByRole('textbox', { name: 'Link to this run' }).inputValue();
      assert.equal(link, `${h.url}#s=gc-pause`);
      const snippet = await dialog.getByRole('textbox', { name: 'Embed code' }).inputValue();
      assert.equal(
        snippet,
        `<iframe src="${h.url}#s=gc-pause&amp;embed=1" title="Leaseline: GC pause longer than the TTL" width="640" height="420" style="border:0" loading="lazy"></iframe>`,
      );
      await page.screenshot({ path: join(SHOTS, 'share-dialog.png') });
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  });

  test('exports download and match the run (SVG, PNG, Mermaid, trace, scenario); a bad import names the field and keeps the scenario', async () => {
    const { context, page, problems } = await openApp(h.browser, h.url, { ...LAPTOP, acceptDownloads: true });
    try {
      await page.locator('details.io summary').click();
      const exportGroup = page.getByRole('group', { name: 'Export' });
      const download = async (name) => {
        const [d] = await Promise.all([page.waitForEvent('download'), exportGroup.getByRole('button', { name, exact: true }).click()]);
        return { file: d.suggestedFilename(), bytes: await readFile(await d.path()) };
      };
      const save = async (name) => (await download(name)).bytes.toString('utf8');
      const stem = 'gc-pause-longer-than-the-ttl';
      // The run on screen, which every export must describe.
      const digest = await parts(page).digest();
      const total = Number((await parts(page).slider.getAttribute('aria-valuetext')).match(/^t = [\d.]+s, event 0 of (\d+)$/)[1]);
      assert.equal(total, 53);
      assert.equal(await page.locator('section.diagram:not(.versus)').getAttribute('data-entries'), String(total));

      // SVG: parses, and is the picture of the diagram (its width, title and lanes; below a
      // heading and above a legend, so taller than the bare diagram's 272).
      const svgFile = await download('SVG');
      assert.equal(svgFile.file, `${stem}.svg`);
      const svg = svgFile.bytes.toString('utf8');
      const parsed = await page.evaluate((text) => {
        const doc = new DOMParser().parseFromString(text, 'image/svg+xml');
        const root = doc.documentElement;
        return {
          error: doc.querySelector('parsererror')?.textContent ?? null,
          root: root.nodeName,
          size: [root.getAttribute('width'), root.getAttribute('height')],
          title: root.querySelector('title')?.textContent,
          lanes: root.querySelectorAll('g.diagram g.lane').length,
          stale: root.querySelectorAll('g.diagram g.mark.stale').length,
        };
      }, svg);
      const height = Number(parsed.size[1]);
      assert.ok(height > 272 + 200, `heading and legend around the diagram: ${height}`);
      assert.deepEqual(parsed, {
        error: null,
        root: 'svg',
        size: ['960.0', parsed.size[1]],
        title: 'GC pause longer than the TTL',
        lanes: 4,
        stale: 1,
      });

      // PNG: a real PNG at twice the SVG's size (its header), and a drawing, not a blank:
      // decoded by the browser, it has the same size and many opaque, varied pixels, among
      // them the red of the two-believers band and the stale-write alarm.
      const pngFile = await download('PNG');
      assert.equal(pngFile.file, `${stem}.png`);
      const png = pngFile.bytes;
      assert.equal(png.subarray(0, 8).toString('hex'), '89504e470d0a1a0a', 'the PNG signature');
      assert.equal(png.subarray(12, 16).toString('latin1'), 'IHDR');
      const twice = [1920, Math.round(height * 2)];
      assert.deepEqual([png.readUInt32BE(16), png.readUInt32BE(20)], twice, 'twice the SVG');
      const pixels = await page.evaluate(async (b64) => {
        const img = new Image();
        img.src = `data:image/png;base64,${b64}`;
        await img.decode();
        const c = document.createElement('canvas');
        c.width = img.naturalWidth;
        c.height = img.naturalHeight;
        const ctx = c.getContext('2d');
        ctx.drawImage(img, 0, 0);
        const d = ctx.getImageData(0, 0, c.width, c.height).data;
        let opaque = 0;
        let ink = 0;
        let red = 0;
        const colours = new Set();
        for (let i = 0; i < d.length; i += 4) {
          const [r, g, b, a] = [d[i], d[i + 1], d[i + 2], d[i + 3]];
          if (a === 0) continue;
          opaque += 1;
          if (r + g + b < 600) ink += 1;
          if (r > 180 && g < 80 && b < 80) red += 1;
          colours.add((r << 16) | (g << 8) | b);
        }
        return { size: [c.width, c.height], opaque, ink, red, colours: colours.size };
      }, png.toString('base64'));
      assert.deepEqual(pixels.size, twice);
      assert.ok(pixels.ink > 20_000, `a drawing, not a blank: ${JSON.stringify(pixels)}`);
      assert.ok(pixels.colours > 50, `many colours: ${JSON.stringify(pixels)}`);
      assert.ok(pixels.red > 500, `the red of the band and the alarm: ${JSON.stringify(pixels)}`);

      // Trace JSON: the run itself — its digest, every entry, in time order.
      const traceFile = await download('Trace JSON');
      assert.equal(traceFile.file, `${stem}.trace.json`);
      const trace = JSON.parse(traceFile.bytes.toString('utf8'));
      assert.deepEqual(Object.keys(trace), ['digest', 'entries']);
      assert.equal(trace.digest, digest, "the trace's digest is the run's");
      assert.equal(trace.entries.length, total, 'one entry per event of the slider');
      for (let i = 1; i < trace.entries.length; i++) assert.ok(trace.entries[i].t >= trace.entries[i - 1].t, `entry ${i} in time order`);
      const sent = trace.entries.filter((e) => e.event.kind === 'sent');
      assert.equal(sent.length, 13);

      // Mermaid: a sequence diagram of the four nodes, one message line per message sent in
      // the trace (from and to the right nodes), a note per violation.
      const mermaid = (await save('Mermaid')).trimEnd().split('\n');
      assert.equal(mermaid[0], 'sequenceDiagram');
      const participants = mermaid.filter((l) => l.startsWith('participant '));
      assert.deepEqual(participants, [
        'participant c1 as client 1',
        'participant c2 as client 2',
        'participant coord as the lock service',
        'participant storage as storage',
      ]);
      const messages = mermaid.filter((l) => /->>/.test(l)).map((l) => l.match(/^(\w+)->>(\w+): /)?.slice(1, 3).join('>'));
      assert.deepEqual(messages, sent.map((e) => `${e.node}>${e.event.to}`), 'the messages of the trace, in order');
      assert.equal(mermaid.filter((l) => l.startsWith('Note over c1,storage: ⚠ ')).length, 2, 'both violations noted');
      assert.ok(mermaid.includes('c1->>storage: write token 33'), 'the stale write');
      const known = /^(sequenceDiagram|participant \w+ as .+|\w+->>\w+: .+|Note over [\w,]+: .+)$/;
      assert.deepEqual(mermaid.filter((l) => !known.test(l)), [], 'every line is Mermaid');

      const scenario = JSON.parse(await save('Scenario JSON'));
      assert.equal(scenario.version, 1);
      assert.equal(scenario.name, 'GC pause longer than the TTL');

      scenario.clients[0].ttl_ms = 'long';
      await page.getByRole('textbox', { name: '…or paste a scenario' }).fill(JSON.stringify(scenario));
      await page.getByRole('button', { name: 'Load pasted JSON' }).click();
      const alert = page.getByRole('alert');
      await alert.waitFor();
      assert.match(await alert.innerText(), /import: clients\[0\]\.ttl_ms/);
      assert.equal(await parts(page).digest(), digest, 'the previous scenario is intact');
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  });
});

// End-to-end: sharing and embedding — a shared link opened in a fresh browser gives the same
// cursor, verdict and digest; Back and Forward move between states; a malformed fragment
// gives a message, the default scenario and no console error; the example host page
// (examples/host.html, served from another origin) drives an embed with postMessage and
// hears the violation; exports and a refused import. Screenshots of embed mode at 320x240
// and of the share dialog go to target/e2e/.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { ROOT, SHOTS, digestOf, harness, openApp, playback, stopServer, until, urlOf } from './lib.mjs';

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

/** Serves examples/ on its own port: a host page on a different origin from the app. */
async function serveExamples() {
  const server = createServer(async (req, res) => {
    try {
      const body = await readFile(join(ROOT, 'examples', new URL(req.url, 'http://x').pathname.slice(1)));
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  return server;
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
      await page.goForward();
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
          { timeout: 30_000 },
        );
        assert.equal(violation.kind, 'stale_write');
        assert.ok(violation.t_ms >= 50_000 && violation.t_ms < 50_100, `the stale write lands just after t = 50 s: ${violation.t_ms}`);
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
      assert.ok(link.startsWith(h.url) && link.includes('#s=gc-pause'), link);
      const snippet = await dialog.getByRole('textbox', { name: 'Embed code' }).inputValue();
      assert.match(snippet, /^<iframe src="[^"]*embed=1[^"]*" title="Leaseline: [^"]+"/);
      await page.screenshot({ path: join(SHOTS, 'share-dialog.png') });
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  });

  test('exports download; the SVG parses as XML; a bad import names the field and keeps the scenario', async () => {
    const { context, page, problems } = await openApp(h.browser, h.url, { ...LAPTOP, acceptDownloads: true });
    try {
      await page.locator('details.io summary').click();
      const exportGroup = page.getByRole('group', { name: 'Export' });
      const save = async (name) => {
        const [download] = await Promise.all([page.waitForEvent('download'), exportGroup.getByRole('button', { name, exact: true }).click()]);
        return readFile(await download.path(), 'utf8');
      };
      const svg = await save('SVG');
      const parsed = await page.evaluate((text) => {
        const doc = new DOMParser().parseFromString(text, 'image/svg+xml');
        return { error: doc.querySelector('parsererror')?.textContent ?? null, root: doc.documentElement.nodeName };
      }, svg);
      assert.deepEqual(parsed, { error: null, root: 'svg' });
      assert.match(await save('Mermaid'), /^sequenceDiagram/);
      assert.match(await save('Trace JSON'), /"entries"/);
      const scenario = JSON.parse(await save('Scenario JSON'));
      assert.equal(scenario.version, 1);
      const png = await Promise.all([page.waitForEvent('download'), exportGroup.getByRole('button', { name: 'PNG', exact: true }).click()]);
      assert.match(png[0].suggestedFilename(), /\.png$/);

      const digest = await parts(page).digest();
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

// End-to-end: "Record a time range" — from the default page, Export records the
// whole run as an animated GIF in a Web Worker: the file starts with GIF89a, has ≥ 100
// frames (its image descriptors, counted by walking its blocks), carries the page's link
// in a comment extension, and is byte-identical when recorded again. Then a video: a WebM
// that a <video> plays to its end and that carries the link. No console error.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { SHOTS, harness, openApp, until, WAIT } from './lib.mjs';

const LAPTOP = { viewport: { width: 1280, height: 900 }, acceptDownloads: true };

/** Opens Export (on the default page it brings the whole app) and returns the panel. */
async function openExport(page) {
  if ((await page.locator('details.panel.io[open]').count()) === 0) {
    await page.locator('details.panel.io > summary').click();
  }
  const panel = page.locator('details.panel.io[open]');
  await panel.getByRole('button', { name: 'Record GIF' }).waitFor({ timeout: WAIT });
  return panel;
}

/** The bytes behind a blob: URL, read in the page. */
async function bytesOf(page, url) {
  const b64 = await page.evaluate(async (u) => {
    const buf = new Uint8Array(await (await fetch(u)).arrayBuffer());
    let s = '';
    for (let i = 0; i < buf.length; i += 0x8000) s += String.fromCharCode(...buf.subarray(i, i + 0x8000));
    return btoa(s);
  }, url);
  return Buffer.from(b64, 'base64');
}

/** Walks a GIF's blocks: its image count and its comments' text. */
function walkGif(b) {
  assert.equal(b.subarray(0, 6).toString('latin1'), 'GIF89a');
  let p = 13;
  if (b[10] & 0x80) p += 3 * (2 << (b[10] & 7));
  const subBlocks = () => {
    const parts = [];
    while (b[p] !== 0) {
      parts.push(b.subarray(p + 1, p + 1 + b[p]));
      p += 1 + b[p];
    }
    p += 1;
    return Buffer.concat(parts);
  };
  let images = 0;
  const comments = [];
  for (;;) {
    const t = b[p++];
    if (t === 0x3b) break;
    if (t === 0x21) {
      const label = b[p++];
      const body = subBlocks();
      if (label === 0xfe) comments.push(body.toString('utf8'));
    } else if (t === 0x2c) {
      images += 1;
      p += 9 + (b[p + 8] & 0x80 ? 3 * (2 << (b[p + 8] & 7)) : 0);
      p += 1; // LZW minimum code size
      subBlocks();
    } else {
      throw new Error(`unknown GIF block 0x${t.toString(16)} at byte ${p - 1}`);
    }
  }
  assert.equal(p, b.length, 'nothing after the trailer');
  return { images, comments };
}

/** Records with the panel's defaults; returns the file's URL, its bytes and the time taken. */
async function record(page, panel, button) {
  const before = await panel.locator('.record-result a[download]').getAttribute('href').catch(() => null);
  const t0 = Date.now();
  await panel.getByRole('button', { name: button }).click();
  const link = panel.locator('.record-result a[download]');
  await until(async () => (await link.count()) > 0 && (await link.getAttribute('href')) !== before, `the ${button} result`, {
    timeout: WAIT,
  });
  const wall = Date.now() - t0;
  const url = await link.getAttribute('href');
  return { url, bytes: await bytesOf(page, url), wall, text: await panel.locator('.record-result').innerText() };
}

describe('record', () => {
  const h = harness();

  test('the default page records its run as a GIF and a video, each carrying its link', async () => {
    const { page, context, problems } = await openApp(h.browser, h.url, LAPTOP);
    try {
      const panel = await openExport(page);
      const gif = await record(page, panel, 'Record GIF');
      const href = await page.evaluate(() => location.href);
      const { images, comments } = walkGif(gif.bytes);
      console.log(`GIF: ${gif.bytes.length} bytes, ${images} frames, ${gif.wall} ms from click to file (${gif.text.split('\n')[0]})`);
      assert.ok(images >= 100, `${images} frames`);
      assert.deepEqual(comments, [href], 'the link in a comment extension');
      assert.ok(gif.bytes.length <= 2_000_000, `${gif.bytes.length} bytes`);
      assert.match(gif.text, /Download .*\.gif — \d+ KB, 120 frames/);
      await until(() => panel.locator('img.record-preview').evaluate((img) => img.complete && img.naturalWidth === 720), 'the GIF preview shows');
      await panel.locator('.record').scrollIntoViewIfNeeded();
      await page.screenshot({ path: join(SHOTS, 'record.png') });

      // The same file again, byte for byte.
      const again = await record(page, panel, 'Record GIF');
      assert.notEqual(again.url, gif.url);
      assert.ok(again.bytes.equals(gif.bytes), 'a second export is byte-identical');

      // The download is the same file.
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        panel.locator('.record-result a[download]').click(),
      ]);
      assert.match(download.suggestedFilename(), /\.gif$/);

      // Video: a WebM that plays to its end and carries the link.
      const video = await record(page, panel, 'Record video');
      console.log(`video: ${video.bytes.length} bytes, ${video.wall} ms from click to file`);
      assert.equal(video.bytes.subarray(0, 4).toString('hex'), '1a45dfa3', 'an EBML (WebM) file');
      assert.ok(video.bytes.includes(Buffer.from(href)), 'the link in its metadata');
      const player = panel.locator('video.record-preview');
      const ended = await player.evaluate(
        (v) =>
          new Promise((ok, fail) => {
            v.muted = true;
            v.playbackRate = 4;
            v.onended = () => ok({ ended: v.ended, t: v.currentTime, d: v.duration, w: v.videoWidth });
            v.onerror = () => fail(new Error(`video error ${v.error && v.error.code}`));
            v.play().catch(fail);
          }),
      );
      console.log(`video played to its end at ${ended.t.toFixed(2)} s of ${ended.d} s, ${ended.w} px wide`);
      assert.ok(ended.ended && ended.w === 720 && ended.t >= 11.5, JSON.stringify(ended));
      await page.screenshot({ path: join(SHOTS, 'record-video.png') });
      // A media element reads its source in ranges, dropping its first request once it
      // knows the file: that abort is how <video> loads, not a failure.
      const dropped = `request failed: ${video.url} (net::ERR_ABORTED)`;
      assert.deepEqual(problems.filter((p) => p !== dropped), []);
    } finally {
      await context.close();
    }
  });

  test('Cancel stops a recording at once and says no file was made', async () => {
    const { page, context, problems } = await openApp(h.browser, h.url, LAPTOP);
    try {
      const panel = await openExport(page);
      // A long recording, so there is time to cancel it: the most frames, at the widest
      // (1,800 frames at 720 px take the recorder about a second and a half, which a
      // busy machine's click could miss).
      await panel.getByRole('spinbutton', { name: 'Width (px)' }).fill('1920');
      await panel.getByRole('spinbutton', { name: 'Seconds' }).fill('60');
      await panel.getByRole('spinbutton', { name: 'Frames per second' }).fill('30');
      await panel.getByRole('spinbutton', { name: 'Frames per second' }).press('Tab');
      await panel.getByRole('button', { name: 'Record GIF' }).click();
      await panel.getByRole('progressbar', { name: 'Frames drawn' }).waitFor();
      await panel.getByRole('button', { name: 'Cancel' }).click();
      await panel.getByText('Recording cancelled: no file was made.').waitFor();
      assert.equal(await panel.locator('.record-result').count(), 0);
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  });

  test('with reduced motion the GIF is made but not previewed (it cannot be paused)', async () => {
    const { page, context, problems } = await openApp(h.browser, h.url, { ...LAPTOP, reducedMotion: 'reduce' });
    try {
      const panel = await openExport(page);
      const gif = await record(page, panel, 'Record GIF');
      assert.equal(walkGif(gif.bytes).images, 120);
      assert.equal(await panel.locator('img.record-preview').count(), 0);
      await panel.getByText('No preview here: your system asks for reduced motion').waitFor();
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  });
});

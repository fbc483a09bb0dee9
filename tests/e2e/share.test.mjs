// End-to-end: the Share dialog's embed options. A teacher picks a
// size, "Play on load" and "Diagram and caption only"; the embed code and its link change
// as they do, a preview frame shows that embed (the diagram, no walkthrough), "Copy embed
// code" says "Copied ✓", a typed size out of range is flagged at its field, and the guide
// the dialog mentions is a link that opens. Screenshot: target/e2e/share.png.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { SHOTS, harness, openApp, until, WAIT } from './lib.mjs';

const LAPTOP = { viewport: { width: 1280, height: 900 } };

describe('share options', () => {
  const h = harness();

  test('size, Play on load and Diagram and caption only shape the embed code, its link and a live preview; copying says Copied', async () => {
    const { context, page, problems } = await openApp(h.browser, h.url, {
      ...LAPTOP,
      permissions: ['clipboard-read', 'clipboard-write'],
    });
    try {
      await page.getByRole('button', { name: 'Share', exact: true }).click();
      const dialog = page.getByRole('region', { name: 'Share' });
      const code = dialog.getByRole('textbox', { name: 'Embed code' });

      await dialog.getByRole('radio', { name: 'Large 960×600' }).check();
      await until(async () => (await code.inputValue()).includes('width="960" height="600"'), 'the Large size in the code');
      await dialog.getByRole('radio', { name: 'Medium 640×420' }).check();
      await dialog.getByRole('checkbox', { name: 'Play on load' }).check();
      await dialog.getByRole('checkbox', { name: 'Diagram and caption only' }).check();
      const snippet = await code.inputValue();
      assert.match(snippet, / width="640" height="420" /);
      const src = snippet.match(/src="([^"]*)"/)[1].replaceAll('&amp;', '&');
      assert.equal(src, `${h.url}#s=gc-pause&embed=1&autoplay=1&view=diagram`);

      // The preview is that link, at that size, named for screen readers.
      const frame = dialog.locator('iframe');
      assert.equal(await frame.getAttribute('src'), src);
      assert.equal(await frame.getAttribute('width'), '640');
      assert.equal(await frame.getAttribute('height'), '420');
      assert.equal(await frame.getAttribute('title'), 'Preview: GC pause longer than the TTL');
      // Scaled down to fit the dialog.
      const box = await dialog.locator('.share-preview-box').boundingBox();
      assert.ok(box.width <= 482 && box.width >= 470, `preview ${box.width}px wide`);
      const inside = page.frameLocator('iframe[title^="Preview"]');
      await inside.locator('section.diagram').waitFor({ timeout: WAIT });
      await inside.getByRole('toolbar', { name: 'Playback' }).waitFor();
      assert.equal(await inside.getByRole('region', { name: 'Walkthrough' }).count(), 0, 'no walkthrough in the preview');
      assert.equal(await inside.locator('.verdict').count(), 0, 'no verdict in the preview');
      // Play on load: the preview is playing.
      await until(async () => (await inside.getByRole('button', { name: 'Pause' }).count()) > 0, 'the preview to play');

      // Copy: the button says so, a polite status says so, and the clipboard has the code.
      await dialog.getByRole('button', { name: 'Copy embed code' }).click();
      await until(async () => (await dialog.getByRole('button', { name: 'Copied ✓' }).count()) === 1, '"Copied ✓"');
      assert.equal(await dialog.getByRole('status').innerText(), 'The embed code is copied.');
      assert.equal(await page.evaluate(() => navigator.clipboard.readText()), snippet);
      await page.screenshot({ path: join(SHOTS, 'share.png') });
      await until(async () => (await dialog.getByRole('button', { name: 'Copy embed code' }).count()) === 1, 'the label back after 2 s');

      // A custom size starts from the size on screen and is checked at its field.
      await dialog.getByRole('radio', { name: 'Custom' }).check();
      const width = dialog.getByRole('spinbutton', { name: 'Width (px)' });
      assert.equal(await width.inputValue(), '640');
      await width.fill('800');
      await until(async () => (await code.inputValue()).includes('width="800" height="420"'), 'the typed width');
      await width.fill('3000');
      assert.equal(await width.getAttribute('aria-invalid'), 'true');
      const err = await dialog.locator('#share-width-error').innerText();
      assert.equal(err, 'Width must be a whole number from 280 to 2000 pixels; the code keeps 800.');
      assert.match(await code.inputValue(), / width="800" height="420" /);

      // The guide is a link to a file that is there.
      const guide = dialog.getByRole('link', { name: /docs\/embedding\.md/ });
      const href = await guide.evaluate((a) => a.href);
      assert.equal(href, `${h.url}docs/embedding.md`);
      const text = await page.evaluate(async (u) => (await fetch(u)).text(), href);
      assert.match(text, /^# Embedding Leaseline/);
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  });

  test('without clipboard permission the button says "Select and copy" and selects the code', async () => {
    const { context, page, problems } = await openApp(h.browser, `${h.url}#s=gc-pause&panel=share`, LAPTOP, (c) =>
      c.addInitScript(() => {
        Object.defineProperty(navigator, 'clipboard', { value: { writeText: () => Promise.reject(new Error('denied')) } });
      }),
    );
    try {
      const dialog = page.getByRole('region', { name: 'Share' });
      await dialog.getByRole('button', { name: 'Copy embed code' }).click();
      await until(async () => (await dialog.getByRole('button', { name: 'Select and copy' }).count()) === 1, '"Select and copy"');
      const code = await dialog.getByRole('textbox', { name: 'Embed code' }).inputValue();
      const selected = await page.evaluate(() => {
        const a = document.activeElement;
        return a.value.slice(a.selectionStart, a.selectionEnd);
      });
      assert.equal(selected, code);
      assert.match(await dialog.getByRole('status').innerText(), /^Could not copy\. The embed code is selected/);
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  });
});

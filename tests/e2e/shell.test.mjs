// End-to-end: the built app (dist/, from `trunk build --release`) in a real Chromium, the
// way a person opens it. Run with `node --test tests/e2e/` (part of `make test`).
//
// The test serves dist/ itself on a free 127.0.0.1 port, drives /usr/bin/chromium through
// playwright-core, and closes both in `after`, so nothing is left running even when a check
// fails. Screenshots go to target/e2e/ so a person can look at what the assertions saw.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import {
  SHOTS,
  harness,
  openApp,
} from './lib.mjs';

describe('the app shell', () => {
  const h = harness();

  test('renders its landmarks and controls, with no errors', async () => {
    const { context, page, problems } = await openApp(h.browser, h.url, {
      viewport: { width: 1280, height: 800 },
    });
    try {
      assert.match(await page.title(), /Leaseline/);
      const banner = page.getByRole('banner');
      assert.match(await banner.innerText(), /Leaseline/);
      assert.match(await banner.innerText(), /fencing tokens/);

      for (const landmark of [
        page.getByRole('main'),
        page.getByRole('region', { name: 'Space-time diagram' }),
        page.getByRole('toolbar', { name: 'Playback' }),
        page.getByRole('contentinfo'),
      ]) {
        assert.ok(await landmark.isVisible(), `${landmark} should be visible`);
      }

      const toolbar = page.getByRole('toolbar', { name: 'Playback' });
      // The default scenario is loaded and ready to play; at t = 0 there is nothing behind.
      for (const [name, disabled] of [['Play', false], ['Step back', true], ['Step forward', false]]) {
        const button = toolbar.getByRole('button', { name, exact: true });
        assert.ok(await button.isVisible(), `button "${name}" should be visible`);
        assert.equal(await button.isDisabled(), disabled, `button "${name}" disabled`);
      }
      assert.ok(await toolbar.getByRole('slider', { name: 'Time' }).isVisible());

      // On a laptop screen, Play and the whole diagram show without scrolling.
      const diagram = await page.getByRole('region', { name: 'Space-time diagram' }).boundingBox();
      assert.ok(diagram.y + diagram.height <= 800, `the diagram ends at ${diagram.y + diagram.height}px`);

      await page.screenshot({ path: join(SHOTS, 'shell.png'), fullPage: true });
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  });

  test('fits a 360px-wide screen without sideways scrolling', async () => {
    const { context, page, problems } = await openApp(h.browser, h.url, {
      viewport: { width: 360, height: 740 },
    });
    try {
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      assert.equal(overflow, 0, 'the page is wider than the screen');
      const toolbar = page.getByRole('toolbar', { name: 'Playback' });
      for (const name of ['Play', 'Step back', 'Step forward']) {
        assert.ok(await toolbar.getByRole('button', { name, exact: true }).isVisible());
      }
      await page.screenshot({ path: join(SHOTS, 'shell-360.png'), fullPage: true });
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  });

  test('follows the dark colour scheme', async () => {
    const background = async (colorScheme) => {
      const { context, page, problems } = await openApp(h.browser, h.url, {
        viewport: { width: 1280, height: 800 },
        colorScheme,
      });
      try {
        if (colorScheme === 'dark') {
          await page.screenshot({ path: join(SHOTS, 'shell-dark.png'), fullPage: true });
        }
        assert.deepEqual(problems, []);
        return await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
      } finally {
        await context.close();
      }
    };
    const light = await background('light');
    const dark = await background('dark');
    assert.notEqual(light, dark, 'dark mode should change the page background');
  });
});

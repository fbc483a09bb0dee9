// End-to-end: every control on the page has an accessible name — with every panel and menu
// open, in the full app and in an embed — and no action needs a right-click.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { harness, openApp, playback } from './lib.mjs';

/** Controls without a name: what a screen reader would announce as just "button". */
function unnamed(page) {
  return page.evaluate(() => {
    const name = (el) =>
      (el.getAttribute('aria-label') ?? '').trim() ||
      [...(el.labels ?? [])].map((l) => l.textContent.trim()).join(' ') ||
      (el.getAttribute('aria-labelledby') ?? '')
        .split(' ')
        .map((id) => document.getElementById(id)?.textContent.trim() ?? '')
        .join(' ')
        .trim() ||
      (['BUTTON', 'A', 'SUMMARY'].includes(el.tagName) ? el.textContent.trim() : '') ||
      (el.getAttribute('title') ?? '').trim();
    const controls = document.querySelectorAll(
      'button, a[href], input, select, textarea, summary, [role=button], [role=slider]',
    );
    const shown = [...controls].filter((el) => el.getClientRects().length > 0);
    // How many were looked at, so the check cannot pass by finding nothing.
    window.__controlsChecked = shown.length;
    return shown.filter((el) => !name(el)).map((el) => el.outerHTML.slice(0, 120));
  });
}

const checked = (page) => page.evaluate(() => window.__controlsChecked);

describe('accessibility', () => {
  const h = harness();

  test('every control has an accessible name, with every panel open', async () => {
    const { context, page, problems } = await openApp(h.browser, h.url, { viewport: { width: 1280, height: 900 } });
    try {
      for (const summary of ['details.settings summary', 'details.editor summary', 'details.io summary']) {
        await page.locator(summary).click();
      }
      await page.getByRole('button', { name: 'Compare', exact: true }).click();
      assert.deepEqual(await unnamed(page), []);
      assert.ok((await checked(page)) > 60, `only ${await checked(page)} controls on the page`);
      for (const menu of ['Lessons', 'Interview prep', 'Share']) {
        await page.getByRole('button', { name: menu, exact: true }).click();
        assert.deepEqual(await unnamed(page), [], menu);
      }
      await page.goto(`${h.url}#quiz=1`);
      await playback(page).button('Jump to end').click();
      assert.deepEqual(await unnamed(page), [], 'a quiz stop');
      await page.locator('svg.stage g[role=button]').first().click();
      assert.deepEqual(await unnamed(page), [], "a node's action menu");
      // No action hides behind a right-click: the page never listens for contextmenu.
      assert.equal(await page.evaluate(() => document.querySelectorAll('[oncontextmenu]').length), 0);
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  });

  test('an embed names its controls too', async () => {
    const { context, page, problems } = await openApp(h.browser, `${h.url}#s=gc-pause&embed=1&panel=share`, { viewport: { width: 480, height: 360 } });
    try {
      assert.deepEqual(await unnamed(page), []);
      assert.ok((await checked(page)) > 8, `only ${await checked(page)} controls in the embed`);
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  });
});

// End-to-end: every control on the page has an accessible name — with every panel and menu
// open, in the full app and in an embed — every control is in the tab order, a node's
// actions open from the keyboard, and no action needs a right-click (right-clicking anything
// on the page changes nothing).

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

/**
 * Right-clicks every shown element of the page, one at a time — a `contextmenu` event, as a
 * mouse's secondary button sends it, bubbling to the document and window, so a listener added
 * anywhere with addEventListener hears it — and reports each element after which anything
 * happened: the page's markup, a field's value, the address, stored progress, or the native
 * menu suppressed (preventDefault, what a custom right-click menu does first). Returns the
 * findings and how many elements were right-clicked, so the sweep cannot pass by finding
 * nothing.
 */
function rightClickEverything(page) {
  return page.evaluate(async () => {
    // Yew renders in a microtask after the event; wait two tasks to be sure it has.
    const settle = async () => {
      await new Promise((ok) => setTimeout(ok, 0));
      await new Promise((ok) => setTimeout(ok, 0));
    };
    const state = () =>
      [
        document.body.innerHTML,
        [...document.querySelectorAll('input, select, textarea')].map((e) => `${e.value}/${e.checked}`).join('|'),
        location.href,
        JSON.stringify({ ...localStorage }),
      ].join('\n');
    const all = [...document.body.querySelectorAll('*')].filter(
      (e) => e.getClientRects().length > 0 && !['SCRIPT', 'STYLE'].includes(e.tagName),
    );
    const found = [];
    await settle();
    for (const e of all) {
      if (!e.isConnected) continue;
      const before = state();
      const r = e.getBoundingClientRect();
      const ev = new MouseEvent('contextmenu', {
        bubbles: true,
        cancelable: true,
        composed: true,
        button: 2,
        buttons: 2,
        clientX: r.left + r.width / 2,
        clientY: r.top + r.height / 2,
        view: window,
      });
      const notPrevented = e.dispatchEvent(ev);
      await settle();
      const what = e.outerHTML.slice(0, 100);
      if (!notPrevented) found.push(`the native menu was suppressed on ${what}`);
      if (state() !== before) found.push(`the page changed after a right-click on ${what}`);
    }
    return { found, tried: all.length };
  });
}

/**
 * Controls a keyboard cannot reach: shown, clickable, and out of the tab order (a negative
 * tabIndex, or an element that is not focusable by nature and has no tabindex).
 */
function unreachable(page) {
  return page.evaluate(() =>
    [...document.querySelectorAll('button, a[href], input, select, textarea, summary, [role=button], [role=slider], [role=link], [role=menuitem], [role=tab]')]
      .filter((e) => e.getClientRects().length > 0 && !e.matches(':disabled'))
      .filter((e) => e.tabIndex < 0)
      .map((e) => e.outerHTML.slice(0, 120)),
  );
}

describe('accessibility', () => {
  const h = harness();

  test('every control has an accessible name, with every panel open', async () => {
    const { context, page, problems } = await openApp(h.browser, h.url, { viewport: { width: 1280, height: 900 } });
    try {
      for (const summary of ['details.settings summary', 'details.editor > summary', 'details.io summary']) {
        await page.locator(summary).click();
      }
      await page.getByRole('button', { name: 'Compare', exact: true }).click();
      assert.deepEqual(await unnamed(page), []);
      assert.ok((await checked(page)) > 60, `only ${await checked(page)} controls on the page`);
      assert.deepEqual(await unreachable(page), [], 'every control is in the tab order');
      // No action hides behind a right-click: right-clicking anything changes nothing.
      const sweep = await rightClickEverything(page);
      assert.deepEqual(sweep.found, []);
      assert.ok(sweep.tried > 500, `only ${sweep.tried} elements right-clicked`);
      for (const menu of ['Lessons', 'Interview prep', 'Share']) {
        await page.getByRole('button', { name: menu, exact: true }).click();
        assert.deepEqual(await unnamed(page), [], menu);
      }
      await page.goto(`${h.url}#quiz=1`);
      await playback(page).button('Jump to end').click();
      assert.deepEqual(await unnamed(page), [], 'a quiz stop');
      assert.deepEqual(await unreachable(page), [], 'a quiz stop: every control is in the tab order');
      // A node's action menu opens from the keyboard as from a click: Enter on the node.
      const menu = page.getByRole('group', { name: /^Actions for / });
      assert.equal(await menu.count(), 0);
      await page.locator('svg.stage g[role=button]').first().focus();
      await page.keyboard.press('Enter');
      await menu.waitFor({ state: 'visible' });
      assert.deepEqual(await unnamed(page), [], "a node's action menu");
      assert.deepEqual(await unreachable(page), [], "a node's action menu: every control is in the tab order");
      // With the menu open, the quiz's stop and the stage's actions: still nothing on a right-click.
      const sweep2 = await rightClickEverything(page);
      assert.deepEqual(sweep2.found, []);
      assert.ok(sweep2.tried > 300, `only ${sweep2.tried} elements right-clicked`);
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

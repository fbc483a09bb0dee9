// End-to-end: the engineer's path through the scenario editor. Typing a pause fault into
// the Faults box character by character — invalid JSON for almost every keystroke — must
// keep every character and the caret, and the fault must run; clearing the TTL box and
// typing 20 must give 20 s, not 3020.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { SHOTS, digestOf, harness, openApp, until } from './lib.mjs';

const LAPTOP = { viewport: { width: 1280, height: 900 } };
const FAULT = '[{ "at_ms": 20000, "fault": "pause", "node": "c2", "for_ms": 5000 }]';

describe('typing in the scenario editor', () => {
  const h = harness();

  test('a fault typed key by key is kept, and runs', async () => {
    const { context, page, problems } = await openApp(h.browser, h.url, LAPTOP);
    try {
      await page.locator('details.editor > summary').click();
      const editor = page.locator('details.editor');
      await editor.getByRole('button', { name: 'Start from the run on screen' }).click();
      const status = editor.getByRole('status');

      const ttl = editor.locator('fieldset.client').first().getByLabel('TTL (s)');
      await ttl.fill('');
      assert.equal(await ttl.inputValue(), '', 'a cleared box stays empty');
      assert.equal(await ttl.getAttribute('aria-invalid'), 'true');
      await ttl.pressSequentially('20');
      assert.equal(await ttl.inputValue(), '20');
      assert.equal(await ttl.getAttribute('aria-invalid'), 'false');

      // The JSON stays as the advanced view of the fault list.
      await editor.locator('fieldset.faults details.advanced > summary').click();
      const faults = editor.getByLabel('Faults (JSON)');
      await faults.fill('');
      await faults.pressSequentially(FAULT);
      assert.equal(await faults.inputValue(), FAULT, 'every keystroke kept, in order');
      assert.equal(await status.innerText(), 'Valid: 2 client(s), 1 fault(s). Run it to see what happens.');
      await editor.scrollIntoViewIfNeeded();
      await editor.screenshot({ path: join(SHOTS, 'editor-typed.png') });

      const before = await digestOf(page);
      await editor.getByRole('button', { name: 'Run this scenario' }).click();
      await until(async () => (await digestOf(page)) !== before, 'the typed scenario to run');
      // The run on screen is the one typed: client 2 pauses at 20 s, client 1's TTL is 20 s.
      const exported = await page.evaluate(() =>
        [...document.querySelectorAll('svg.timeline title')].map((t) => t.textContent).join('\n'),
      );
      assert.match(exported, /paused/);
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  });
});

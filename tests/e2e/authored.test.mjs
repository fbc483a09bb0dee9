// End-to-end: a course author's own walkthrough. Written in the editor (a beat's time,
// words and a lane to highlight), run, told beside the diagram in place of the built-in
// one, carried by the Share dialog's embed code, and told the same way inside the embed,
// where it marks the beat's lane and reports progress to the host.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { SHOTS, digestOf, harness, openApp, until } from './lib.mjs';

const BEATS = [
  ['10', 'Unit 2, beat one: client 1 freezes mid-job.'],
  ['30', 'Unit 2, beat two: the lease lapses and nobody tells client 1.'],
];

describe('an author\'s own walkthrough', () => {
  const h = harness();

  test('written in the editor, told beside the run, carried into an embed by the Share dialog', async () => {
    const { context, page, problems } = await openApp(h.browser, `${h.url}#s=gc-pause`, { viewport: { width: 1280, height: 900 } });
    try {
      await page.locator('details.editor > summary').click();
      const editor = page.locator('details.editor');
      const beats = editor.locator('fieldset.walkthrough-beats');
      for (const [i, [at, words]] of BEATS.entries()) {
        await beats.getByRole('button', { name: 'Add a beat' }).click();
        const row = beats.locator('fieldset.beat-row').nth(i);
        await row.getByLabel('At (s)').fill(at);
        await row.getByLabel('What it says').fill(words);
      }
      // The first beat points the reader at client 1's lane.
      await beats.locator('fieldset.beat-row').first().getByLabel('Highlight the lane of').selectOption('c1');
      // A beat without words is said at its field, and the run waits for it.
      await beats.locator('fieldset.beat-row').nth(1).getByLabel('What it says').fill(' ');
      assert.match(await editor.getByRole('status').innerText(), /Not ready to run/);
      await beats.locator('fieldset.beat-row').nth(1).getByLabel('What it says').fill(BEATS[1][1]);
      await until(async () => /^Valid/.test(await editor.getByRole('status').innerText()), 'the draft valid');
      const before = await digestOf(page);
      await editor.getByRole('button', { name: 'Run this scenario' }).click();
      // The same run (the words change nothing the model does), told in the author's beats.
      const guide = page.getByRole('region', { name: 'Walkthrough' });
      const beat = guide.locator('.beat');
      await until(async () => (await guide.locator('.beat-count').innerText()) === '2 beats', 'the two beats of ours');
      assert.equal(await digestOf(page), before);
      for (const [, words] of BEATS) {
        await guide.getByRole('button', { name: 'Next', exact: true }).click();
        await until(async () => (await beat.innerText()) === words, `"${words}"`);
      }
      assert.ok(await guide.getByRole('button', { name: 'Next', exact: true }).isDisabled(), 'the last beat');
      await page.screenshot({ path: join(SHOTS, 'authored-app.png') });

      await page.getByRole('button', { name: 'Share', exact: true }).click();
      const code = await page.getByRole('region', { name: 'Share' }).getByRole('textbox', { name: 'Embed code' }).inputValue();
      const src = code.match(/src="([^"]+)"/)[1].replaceAll('&amp;', '&');
      assert.match(src, /#sc=[^&]+&.*embed=1/);

      const embed = await context.newPage();
      await embed.setViewportSize({ width: 640, height: 420 });
      const said = [];
      await embed.exposeFunction('heard', (d) => said.push(d));
      await embed.addInitScript(() => {
        // The frame's own page stands in for a host: its parent is itself.
        addEventListener('message', (e) => e.data?.type === 'statement' && window.heard(e.data));
      });
      await embed.goto(src);
      const inner = embed.getByRole('region', { name: 'Walkthrough' });
      // The link keeps the cursor where the author left it, at the last beat: from the start.
      assert.equal(await inner.locator('.beat').innerText(), BEATS[1][1]);
      await embed.locator('body').press('Home');
      await until(async () => (await inner.locator('.beat-count').innerText()) === '2 beats', 'the start');
      const marked = () => embed.locator('.lane-names .lane-name.highlighted').allTextContents();
      assert.deepEqual(await marked(), [], 'no lane marked before the first beat');
      for (const [i, [, words]] of BEATS.entries()) {
        await inner.getByRole('button', { name: 'Next', exact: true }).click();
        await until(async () => (await inner.locator('.beat').innerText()) === words, `the embed's "${words}"`);
        assert.deepEqual(await marked(), i === 0 ? ['Client 1'] : [], `the lane marked at beat ${i + 1}`);
        if (i === 0) await embed.screenshot({ path: join(SHOTS, 'authored-highlight-640x420.png') });
      }
      await embed.screenshot({ path: join(SHOTS, 'authored-embed-640x420.png') });
      await until(() => said.some((d) => d.verb === 'completed'), 'the lesson completed');
      const kinds = said.map((d) => `${d.verb} ${d.object.kind} ${d.result.beat ?? ''}/${d.result.beats}`);
      // Opened at the last beat, the frame tells it (and the lesson completed) at once; beat 1
      // once it is walked; beat 2 is not told twice.
      assert.deepEqual(kinds, ['progressed lesson 2/2', 'completed lesson /2', 'progressed lesson 1/2']);
      assert.ok(said.every((d) => d.object.id === 'GC pause longer than the TTL'), JSON.stringify(said[0]));
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  });
});

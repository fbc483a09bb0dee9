// End-to-end: a course author's own questions. Two questions and a beat written in the
// editor (times, words, choices and the outcome each choice predicts: no answer is
// entered), run, carried into an embed by the Share dialog's code, and asked there as a
// built-in question's stops are: the run holds before the decisive moment, the reveal
// says what the run did, and the host hears each answer and the score.
//
// The answers are worked out by hand from the gc-pause run (unfenced): client 1's lease
// expires at 30.005 s, five ms before client 2 believes it holds the lock and a second
// before client 2's write lands; client 1's late write at 50.005 s is accepted.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { SHOTS, digestOf, harness, openApp, playback, until } from './lib.mjs';

const OUTCOME = 'Right if the run next shows';

describe('an author\'s own questions', () => {
  const h = harness();

  test('written in the editor, carried by the Share dialog, asked in an embed and graded by the run', async () => {
    const { context, page, problems } = await openApp(h.browser, `${h.url}#s=gc-pause`, { viewport: { width: 1280, height: 900 } });
    try {
      await page.locator('details.editor > summary').click();
      const editor = page.locator('details.editor');
      const beats = editor.locator('fieldset.walkthrough-beats');
      await beats.getByRole('button', { name: 'Add a beat' }).click();
      await beats.locator('fieldset.beat-row').first().getByLabel('What it says').fill('Client 1 freezes; watch the lock service.');

      const questions = editor.locator('fieldset.authored-questions');
      await questions.getByRole('button', { name: 'Add a question' }).click();
      const q1 = questions.locator('fieldset.question-row').nth(0);
      await q1.getByLabel('The question').fill('Client 1 is frozen with the lock. Which comes first?');
      // A third choice takes the first outcome no choice names yet (a lease expiring); the
      // second is changed to two believers, words and outcome.
      await q1.getByRole('button', { name: 'Add a choice to question 1' }).click();
      const q1choices = q1.locator('.choice-row');
      assert.equal(await q1choices.count(), 3);
      await q1choices.nth(1).getByLabel('Choice').fill('Two clients believe they hold the lock');
      await q1choices.nth(1).getByLabel(OUTCOME).selectOption('two_believers');
      // Two choices may not predict the same moment: said at the field, and the run waits.
      await q1choices.nth(2).getByLabel(OUTCOME).selectOption('two_believers');
      assert.match(await editor.getByRole('status').innerText(), /Not ready to run/);
      await q1choices.nth(2).getByLabel(OUTCOME).selectOption('lease_expired');

      await questions.getByRole('button', { name: 'Add a question' }).click();
      const q2 = questions.locator('fieldset.question-row').nth(1);
      await q2.getByLabel('At (s)').fill('40');
      await q2.getByLabel('The question').fill('Client 1 wakes at 50 s and writes with token 33. What does storage do?');
      await q2.getByLabel('Told after the answer').fill('Nothing here checks tokens, so the stale write lands.');
      await until(async () => /^Valid/.test(await editor.getByRole('status').innerText()), 'the draft valid');
      const before = await digestOf(page);
      await editor.getByRole('button', { name: 'Run this scenario' }).click();
      const offer = page.getByRole('button', { name: 'Answer the 2 questions on this run' });
      await offer.waitFor();
      assert.equal(await digestOf(page), before, 'the questions change nothing the model does');

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
        addEventListener('message', (e) => e.data?.type === 'statement' && e.data.object?.kind === 'question' && window.heard(e.data));
      });
      await embed.goto(src);
      await embed.getByRole('button', { name: 'Answer the 2 questions on this run' }).click();
      const quiz = embed.getByRole('region', { name: 'Questions' });
      await until(async () => (await quiz.locator('.beat-count').innerText()) === 'stop 1 of 2', 'stop 1');

      // Question 1: the run holds just before the lease expires; the learner says a write.
      await quiz.getByRole('button', { name: 'Skip to the stop' }).click();
      await quiz.locator('.stop-question').waitFor();
      assert.equal(await quiz.locator('.stop-question').innerText(), 'Client 1 is frozen with the lock. Which comes first?');
      const t1 = Number(await playback(embed).slider.inputValue());
      assert.ok(t1 < 30_005, `held before the expiry, at ${t1} ms`);
      await embed.screenshot({ path: join(SHOTS, 'authored-question-640x420.png') });
      await quiz.getByRole('button', { name: 'Storage accepts the write' }).click();
      await quiz.getByRole('button', { name: 'Play on' }).click();
      await until(async () => /Not quite\. What this run did: A lease expires\./.test(await quiz.locator('.verdict-line').innerText().catch(() => '')), 'the reveal of question 1');
      await quiz.getByRole('button', { name: 'Next stop' }).click();

      // Question 2: the late write; the learner is right, and the author's words follow.
      await until(async () => (await quiz.locator('.beat-count').innerText()) === 'stop 2 of 2', 'stop 2');
      await quiz.getByRole('button', { name: 'Skip to the stop' }).click();
      await quiz.locator('.stop-question').waitFor();
      await quiz.getByRole('button', { name: 'Storage accepts the write' }).click();
      await quiz.getByRole('button', { name: 'Play on' }).click();
      await until(async () => /^Right\. What this run did: Storage accepts the write\./.test(await quiz.locator('.verdict-line').innerText().catch(() => '')), 'the reveal of question 2');
      assert.equal(await quiz.locator('.explain').innerText(), 'Nothing here checks tokens, so the stale write lands.');
      await embed.screenshot({ path: join(SHOTS, 'authored-reveal-640x420.png') });
      await quiz.getByRole('button', { name: 'Finish' }).click();
      await until(async () => /You have answered all 2 questions/.test(await quiz.innerText()), 'the end');

      await until(() => said.some((d) => d.verb === 'completed'), 'the questions completed');
      const told = said.map((d) => `${d.verb} ${d.result.stop ?? ''} ${d.result.success} ${d.result.score ?? ''}/${d.result.max ?? ''}`);
      assert.deepEqual(told, ['answered 0 false /', 'answered 1 true /', 'completed  false 1/2']);
      assert.equal(said[0].result.response, 'Storage accepts the write');
      assert.ok(said.every((d) => d.object.id === 'questions:GC pause longer than the TTL'), JSON.stringify(said[0]));
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  });
});

// End-to-end: the interview student's path. A student opens question 3 ("what does the
// deployed code do when the session is lost, and what should it do?"), skips to the stop,
// predicts what the deployed code does, watches the reveal play on to the duplicate
// payment, then answers the right practice over a run of the fix and is graded right.
// Nothing on screen gives an answer away before it is given (the description, the
// transcript, the fence switch), and the panel never says "Press Play" while the run plays.
// Screenshots of the stop and of the reveal go to target/e2e/.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { SHOTS, digestOf, harness, openApp, playback, until, WAIT } from './lib.mjs';

const LAPTOP = { viewport: { width: 1280, height: 900 } };

describe('the interview student', () => {
  const h = harness();

  test('question 3: predict the code, see the duplicate payment, then pick the right practice and be graded right', async () => {
    const { context, page, problems } = await openApp(h.browser, `${h.url}#quiz=3`, LAPTOP);
    try {
      const { toolbar, slider, button } = playback(page);
      const quiz = page.getByRole('region', { name: 'Interview question' });
      const choices = quiz.getByRole('group', { name: 'Your prediction' });
      await quiz.waitFor();

      // Before the answer: the description (it says the code "logs and carries on"), the
      // whole-run transcript and the fence switch are hidden.
      const description = page.locator('.scenario-description');
      assert.match(await description.innerText(), /hidden until you answer/);
      assert.equal(await page.locator('details.transcript').count(), 0, 'no transcript yet');
      assert.equal(await toolbar.getByRole('button', { name: 'Fencing: ?' }).count(), 1);

      // Not playing: the panel says to press Play, and offers to skip the wait.
      assert.match(await quiz.innerText(), /Press Play/);
      await quiz.getByRole('button', { name: 'Skip to the stop' }).click();
      await choices.waitFor();
      assert.match(await quiz.innerText(), /what will it do next\?/);
      await page.screenshot({ path: join(SHOTS, 'student-stop.png'), fullPage: true });

      // Stop 1 is about this code: it carries on. Graded right.
      await choices.getByRole('button', { name: 'Logs a warning and carries on' }).click();
      await quiz.getByRole('button', { name: 'Play on' }).click();
      await until(async () => /Right\./.test(await quiz.innerText()), 'the reveal');
      // The reveal plays on through the duplicate payment and pauses past it (120.025 s),
      // where the verdict so far names it.
      const next = quiz.getByRole('button', { name: 'Next stop' });
      await next.waitFor({ timeout: WAIT });
      assert.ok(Number(await slider.inputValue()) > 120_025, 'past the second payment');
      assert.match(await page.getByRole('region', { name: 'Verdict' }).innerText(), /second time/);
      assert.ok(await button('Play').isVisible(), 'paused after the reveal');
      assert.doesNotMatch(await description.innerText(), /hidden/, 'the description is back');
      await page.screenshot({ path: join(SHOTS, 'student-reveal.png'), fullPage: true });

      // Stop 2 opens the fix and plays towards its question; the panel says it plays.
      const before = await digestOf(page);
      await next.click();
      await until(async () => (await digestOf(page)) !== before, 'the fix run');
      if (await button('Pause').isVisible()) {
        assert.doesNotMatch(await quiz.innerText(), /Press Play/, 'no "Press Play" while playing');
        assert.match(await quiz.innerText(), /Playing on to the question/);
      }
      await choices.waitFor({ timeout: WAIT });
      assert.match(await quiz.innerText(), /what should client 1 do\?/);
      assert.match(page.url(), /quiz=3/);
      await choices.getByRole('button', { name: 'Stop issuing work and abort' }).click();
      await quiz.getByRole('button', { name: 'Play on' }).click();
      await until(async () => /Right\./.test(await quiz.innerText()), 'the second reveal');
      assert.match(await quiz.innerText(), /What this run did: Stop issuing work and abort/);
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  });

  test('question 5: the fence switch does not give the answer away until it is revealed', async () => {
    const { context, page, problems } = await openApp(h.browser, `${h.url}#quiz=5`, LAPTOP);
    try {
      const { toolbar } = playback(page);
      const quiz = page.getByRole('region', { name: 'Interview question' });
      const choices = quiz.getByRole('group', { name: 'Your prediction' });
      await quiz.getByRole('button', { name: 'Skip to the stop' }).click();
      await choices.waitFor();
      assert.equal(await toolbar.getByRole('button', { name: /Fencing: on/ }).count(), 0);
      assert.ok(await toolbar.getByRole('button', { name: 'Next violation' }).isDisabled());
      await choices.getByRole('button', { name: /Rejects it/ }).click();
      await quiz.getByRole('button', { name: 'Play on' }).click();
      await until(async () => /Right\./.test(await quiz.innerText()), 'the reveal');
      assert.equal(await toolbar.getByRole('button', { name: 'Fencing: on' }).count(), 1);
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  });
});


// End-to-end: the teaching layer in the built app — a walkthrough walked forward to the
// end and back to the start, the chapter menu and its deep links, an interview question's
// predict-then-reveal stops answered once right and once wrong, and progress that survives
// a reload. Screenshots of a walkthrough beat and a quiz stop go to target/e2e/.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { SHOTS, digestOf, harness, openApp, playback, until, WAIT } from './lib.mjs';

const LAPTOP = { viewport: { width: 1280, height: 900 } };

function parts(page) {
  return {
    ...playback(page),
    walk: page.getByRole('region', { name: 'Walkthrough' }),
    quiz: page.getByRole('region', { name: 'Interview question' }),
    count: page.locator('.guide .beat-count'),
    beat: page.locator('.guide p.beat'),
    digest: () => digestOf(page),
  };
}

describe('teach it', () => {
  const h = harness();

  test('a walkthrough walks forward to the end and back to the start, and the timeline follows', async () => {
    const { context, page, problems } = await openApp(h.browser, h.url, LAPTOP);
    try {
      const { slider, walk, count, beat } = parts(page);
      await walk.waitFor();
      assert.equal(await count.innerText(), '7 beats');
      const next = walk.getByRole('button', { name: 'Next', exact: true });
      const seen = [];
      for (let k = 1; k <= 7; k++) {
        await next.click();
        await until(async () => (await count.innerText()) === `beat ${k} of 7`, `beat ${k}`);
        seen.push({ ms: Number(await slider.inputValue()), at: await slider.getAttribute('aria-valuetext'), text: await beat.innerText() });
        if (k === 2) await page.screenshot({ path: join(SHOTS, 'walkthrough-beat.png'), fullPage: true });
      }
      // The timeline moved with every beat to its event — the grant, the freeze, the expiry,
      // the second grant, client 2's write, the wake-up, the stale write — and every beat
      // says something new.
      assert.deepEqual(
        seen.map((s) => s.at),
        [
          't = 0.005s, event 5 of 53',
          't = 10.000s, event 17 of 53',
          't = 30.005s, event 18 of 53',
          't = 30.005s, event 19 of 53',
          't = 31.015s, event 27 of 53',
          't = 50.000s, event 31 of 53',
          't = 50.005s, event 35 of 53',
        ],
      );
      assert.equal(new Set(seen.map((s) => s.text)).size, 7);
      assert.ok(await next.isDisabled());
      assert.match(await walk.innerText(), /Break it yourself/);

      // Back with the keyboard while the walkthrough has focus: ← moves a beat (and not
      // also a timeline step).
      await walk.focus();
      for (let k = 6; k >= 1; k--) {
        await page.keyboard.press('ArrowLeft');
        await until(async () => (await count.innerText()) === `beat ${k} of 7`, `back to beat ${k}`);
        assert.equal(Number(await slider.inputValue()), seen[k - 1].ms);
      }
      await page.keyboard.press('ArrowLeft');
      await until(async () => (await count.innerText()) === '7 beats', 'the start');
      assert.equal(Number(await slider.inputValue()), 0);
      await page.keyboard.press('ArrowRight');
      await until(async () => (await count.innerText()) === 'beat 1 of 7', '→ moves forward');

      // "Fix it" switches to the fix variant.
      await page.keyboard.press('End');
      await walk.getByRole('button', { name: 'Fix it: Storage checks the fencing token' }).click();
      const fix = page.getByRole('region', { name: 'Fix' });
      await fix.waitFor();
      assert.ok(await page.getByRole('button', { name: 'Fencing: on' }).isVisible());
      await fix.getByRole('button', { name: "Back to the lesson's run" }).click();
      await walk.waitFor();
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  });

  // Switching fencing on by hand keeps the lesson's walkthrough, which
  // must then neither say "turn fencing on" nor offer fencing as a fix. A fix's note says
  // what it changes without counting (point 13).
  test('with fencing already on, the walkthrough offers neither "turn fencing on" nor the fencing fix', async () => {
    const { context, page, problems } = await openApp(h.browser, h.url, LAPTOP);
    try {
      const { walk } = parts(page);
      await walk.waitFor();
      await page.keyboard.press('End');
      await until(async () => /Break it yourself/.test(await walk.innerText()), 'the last beat');
      assert.match(await walk.innerText(), /Press “Fix it: Storage checks the fencing token”/);
      const fixIt = walk.getByRole('button', { name: 'Fix it: Storage checks the fencing token' });
      assert.equal(await fixIt.count(), 1);

      await page.getByRole('button', { name: 'Fencing: off' }).click();
      await page.getByRole('button', { name: 'Fencing: on' }).waitFor();
      await page.keyboard.press('End');
      await until(async () => /beat 6 of 6/.test(await walk.innerText()), 'the last beat of the fenced run');
      assert.doesNotMatch(await walk.innerText(), /fencing on/i);
      assert.equal(await fixIt.count(), 0, 'no "Fix it: fencing" while fencing is on');
      await page.screenshot({ path: join(SHOTS, 'walkthrough-fenced-end.png'), fullPage: true });

      await page.evaluate(() => {
        location.hash = '#s=ttl-shorter-than-work/watchdog';
      });
      const fix = page.getByRole('region', { name: 'Fix' });
      await fix.waitFor();
      assert.match(await fix.innerText(), /What this run changes: a renewal watchdog/);
      assert.doesNotMatch(await fix.innerText(), /one thing/);
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  });

  test('the chapter menu reaches every lesson, and chapters and beats have deep links', async () => {
    const { context, page, problems } = await openApp(h.browser, `${h.url}#chapter=5`, LAPTOP);
    try {
      const { walk, count, digest } = parts(page);
      const menu = page.getByRole('navigation', { name: 'Lessons' });
      await menu.waitFor();
      // Six chapters of the sources' failure modes (33 lessons), then the real lock
      // services (10 presets).
      assert.equal(await menu.locator('section.chapter:not(.recorded)').count(), 7);
      assert.equal(await menu.locator('section.chapter:not(.recorded) > ol > li').count(), 43);
      // Then the lab's eight recordings of real runs.
      assert.equal(await menu.locator('section.chapter.recorded > ol > li').count(), 8);
      assert.match(await menu.locator('section.chapter.target h3').innerText(), /^5\. What a fence needs/);
      const before = await digest();
      await menu.getByRole('link', { name: 'Check, then write' }).click();
      await until(async () => (await digest()) !== before, 'the lesson to load');
      assert.equal(await menu.count(), 0, 'the menu closes');
      assert.equal(await count.innerText(), '6 beats');
      assert.match(page.url(), /#s=check-then-write$/);

      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  });

  test("a beat's link opens the lesson at that beat in a fresh browser; a bad link names its key", async () => {
    const { context, page, problems } = await openApp(h.browser, `${h.url}#s=delayed-write&beat=3`, LAPTOP);
    try {
      const { walk, count } = parts(page);
      await walk.waitFor();
      await until(async () => (await count.innerText()) === 'beat 3 of 6', 'beat 3 from the link');
      const digest = await parts(page).digest();
      // A bad link changes nothing but the message.
      await page.evaluate(() => {
        location.hash = '#s=nope';
      });
      const alert = page.getByRole('alert');
      await alert.waitFor();
      assert.match(await alert.innerText(), /s: no scenario named "nope"/);
      assert.equal(await count.innerText(), 'beat 3 of 6', 'the open lesson survives');
      assert.equal(await parts(page).digest(), digest);
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  });

  test('an interview question stops before each decisive event; one answer right, one wrong; progress survives a reload', async () => {
    const { context, page, problems } = await openApp(h.browser, h.url, LAPTOP);
    try {
      const { toolbar, quiz } = parts(page);
      await page.getByRole('button', { name: 'Interview prep' }).click();
      const menu = page.getByRole('navigation', { name: 'Interview prep' });
      // The menu is the whole app's: it opens once that has loaded.
      await menu.getByRole('listitem').first().waitFor();
      assert.equal(await menu.getByRole('listitem').count(), 5);
      await menu.getByRole('link', { name: /Two clients both believe/ }).click();
      await quiz.waitFor();
      for (let i = 0; i < 4; i++) await page.keyboard.press(']');
      await toolbar.getByRole('button', { name: 'Play', exact: true }).click();

      // Stop 1: the run halts before the lock service's next decision (here, the grant to client 2) and asks.
      const choices = quiz.getByRole('group', { name: 'Your prediction' });
      await choices.waitFor({ timeout: WAIT });
      assert.match(await quiz.innerText(), /What does the lock service do next/);
      assert.ok(await toolbar.getByRole('button', { name: 'Play', exact: true }).isVisible(), 'paused at the stop');
      await choices.getByRole('button', { name: /Grants client 2 the lock once/ }).click();
      await page.screenshot({ path: join(SHOTS, 'quiz-stop.png'), fullPage: true });
      await quiz.getByRole('button', { name: 'Play on' }).click();
      await until(async () => /Right\./.test(await quiz.innerText()), 'the reveal', { timeout: WAIT });
      assert.match(await quiz.innerText(), /What this run did: Grants client 2 the lock once/);

      // Stop 2: storage decides; predict the fence (wrong: this run has none).
      await quiz.getByRole('button', { name: 'Next stop' }).click();
      await choices.waitFor({ timeout: WAIT });
      assert.match(await quiz.innerText(), /What does storage do/);
      await choices.getByRole('button', { name: /Rejects it/ }).click();
      await quiz.getByRole('button', { name: 'Play on' }).click();
      await until(async () => /Not quite\./.test(await quiz.innerText()), 'the second reveal', { timeout: WAIT });
      assert.match(await quiz.innerText(), /What this run did: Accepts it and overwrites/);
      await quiz.getByRole('button', { name: 'Show the model answer' }).click();
      assert.match(await quiz.innerText(), /A model answer/);

      // Progress is kept across a reload, and can be reset.
      await page.reload();
      await page.getByRole('banner').waitFor();
      await page.getByRole('button', { name: 'Interview prep' }).click();
      const first = page.getByRole('navigation', { name: 'Interview prep' }).getByRole('listitem').first();
      assert.match(await first.innerText(), /2\/2 answered, 1 right/);
      await page.getByRole('button', { name: 'Reset progress' }).click();
      await until(async () => /0\/2 answered, 0 right/.test(await first.innerText()), 'the reset');
      // The link holds the open panel, so the reload opens the menu again by itself.
      await page.reload();
      await page.getByRole('banner').waitFor();
      assert.match(page.url(), /panel=interview/);
      assert.match(await page.getByRole('navigation', { name: 'Interview prep' }).getByRole('listitem').first().innerText(), /0\/2 answered/);
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  });
});

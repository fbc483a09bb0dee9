// End-to-end: offline after a first visit. Leaseline keeps
// no service worker; a reader who has visited once can come back without a network through
// ordinary HTTP caching, as long as the host lets the browser keep the files for a while
// (`Cache-Control: max-age=…`, what static hosts send by default; README, "Hosting").
//
// The first visit goes where a reader goes: the default page (the first load), Play, the
// Lessons menu (which brings the whole app), a lesson, the quiz. Then the network is cut
// (`context.setOffline`) and the reader comes back in a new tab: the default page plays,
// the lesson and the quiz open from their links, and an export still downloads. Requests
// the browser could not answer from its cache fail loudly here, so nothing passes by luck.
//
// A control run with `Cache-Control: no-store` (the test harness's default) shows the test
// can fail: the same second visit does not even load.

import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { mkdir } from 'node:fs/promises';
import { SHOTS, launchBrowser, playback, requireDist, serveDist, stopServer, until, urlOf, WAIT } from './lib.mjs';

const LAPTOP = { viewport: { width: 1280, height: 800 } };

/** Opens `url` in a new tab of `context` and records what went wrong. */
async function visit(context, url) {
  const page = await context.newPage();
  const problems = [];
  // A link's picture drawn at build time (first/…) and the links' player are fetched only
  // by a page opened at such a link; one never opened online is not in the cache, and the
  // page then waits for the whole app, which is, as it does for any link without a
  // picture (static/boot.js). Nothing else may fail.
  const picture = (url) => /\/first\/|\/leaseline-player/.test(new URL(url).pathname);
  page.on('console', (m) => {
    if (m.type() === 'error' && !(m.location()?.url && picture(m.location().url))) problems.push(`console error: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('requestfailed', (r) => {
    if (picture(r.url())) return;
    const error = r.failure()?.errorText;
    problems.push(`request failed: ${r.url()} (${error})`);
  });
  await page.goto(url, { waitUntil: 'load' });
  await page.getByRole('banner').waitFor({ state: 'visible', timeout: WAIT });
  return { page, problems };
}

/** Play turns into Pause and back: the run on screen is live, not a picture. */
async function plays(page) {
  const { button } = playback(page);
  await button('Play').click();
  await button('Pause').waitFor();
  await button('Pause').click();
  await button('Play').waitFor();
}

/** The first visit: the default page, the whole app through the Lessons menu, a lesson, the quiz. */
async function firstVisit(context, url) {
  const { page, problems } = await visit(context, url);
  await plays(page);
  await page.getByRole('button', { name: 'Lessons', exact: true }).click();
  const menu = page.getByRole('navigation', { name: 'Lessons' });
  await menu.waitFor();
  await menu.getByRole('link', { name: 'Check, then write' }).click();
  await until(() => /#s=check-then-write$/.test(page.url()), 'the lesson');
  await page.goto(`${url}#quiz=3`);
  await page.getByRole('region', { name: 'Interview question' }).waitFor();
  await page.close();
  return problems;
}

describe('offline after a first visit', () => {
  let browser;
  before(async () => {
    await requireDist();
    await mkdir(SHOTS, { recursive: true });
    browser = await launchBrowser();
  });
  after(async () => browser?.close());

  test('with a host that lets files be cached, the default page, a lesson, the quiz and an export work offline', async () => {
    const server = await serveDist({ headers: { 'cache-control': 'public, max-age=600' } });
    const url = urlOf(server);
    const context = await browser.newContext(LAPTOP);
    try {
      assert.deepEqual(await firstVisit(context, url), []);
      await context.setOffline(true);

      // The default page: its first load, and Play.
      const home = await visit(context, url);
      await plays(home.page);
      await home.page.screenshot({ path: join(SHOTS, 'offline-home.png') });
      await home.page.close();

      // A lesson's link: its player never came online, so the whole app, from the cache, at that lesson.
      const lesson = await visit(context, `${url}#s=check-then-write`);
      await until(async () => /6 beats/.test(await lesson.page.locator('body').innerText()), 'the lesson’s walkthrough');
      await plays(lesson.page);
      // An export: made in the page, so it needs no network.
      await lesson.page.locator('details.io summary').click();
      const [download] = await Promise.all([
        lesson.page.waitForEvent('download'),
        lesson.page.getByRole('group', { name: 'Export' }).getByRole('button', { name: 'SVG', exact: true }).click(),
      ]);
      assert.match(download.suggestedFilename(), /\.svg$/);
      await lesson.page.screenshot({ path: join(SHOTS, 'offline-lesson.png') });
      await lesson.page.close();

      // The quiz.
      const quiz = await visit(context, `${url}#quiz=3`);
      await quiz.page.getByRole('region', { name: 'Interview question' }).getByRole('button', { name: 'Skip to the stop' }).click();
      await quiz.page.getByRole('group', { name: 'Your prediction' }).waitFor();
      await quiz.page.close();

      assert.deepEqual([...home.problems, ...lesson.problems, ...quiz.problems], []);
    } finally {
      await context.close();
      await stopServer(server);
    }
  });

  test('control: with a host that forbids caching, the same second visit fails offline', async () => {
    const server = await serveDist();
    const url = urlOf(server);
    const context = await browser.newContext(LAPTOP);
    try {
      assert.deepEqual(await firstVisit(context, url), []);
      await context.setOffline(true);
      const page = await context.newPage();
      await assert.rejects(page.goto(url, { waitUntil: 'load', timeout: 10_000 }), /ERR_INTERNET_DISCONNECTED/);
    } finally {
      await context.close();
      await stopServer(server);
    }
  });
});

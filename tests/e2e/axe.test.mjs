// End-to-end: an accessibility audit by axe-core (the npm package, run inside the page) of
// the states a reader meets — the default page at its end, the Lessons menu open, an
// interview stop, an embed, dark mode and a 360 px phone — finds no serious or critical
// violation; and the run comes first: at 360×740 and at 1280×800 the default page shows the
// diagram and the Play button without scrolling.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ROOT, SHOTS, harness, openApp, playback, until, WAIT } from './lib.mjs';

const AXE = join(ROOT, 'node_modules', 'axe-core', 'axe.min.js');
const LAPTOP = { viewport: { width: 1280, height: 800 } };
const PHONE = { viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true };

/** Runs axe-core on the page; returns the serious and critical violations, and how many
 * rules passed (so the audit cannot pass by checking nothing). */
async function audit(page, source) {
  // Evaluated through the debugging protocol, so the page's strict CSP does not apply.
  await page.evaluate(source);
  return page.evaluate(async () => {
    const r = await window.axe.run(document, { resultTypes: ['violations', 'passes'] });
    return {
      passes: r.passes.length,
      bad: r.violations
        .filter((v) => v.impact === 'serious' || v.impact === 'critical')
        .map((v) => `${v.id} (${v.impact}) on ${v.nodes.length}: ${v.nodes[0].html.slice(0, 120)}`),
    };
  });
}

/** Waits for the app itself: the build-time picture (#first-paint) is gone once it mounts. */
async function mounted(page) {
  await page.locator('#first-paint').waitFor({ state: 'detached', timeout: WAIT });
  await page.locator('section.diagram').first().waitFor();
}

describe('accessibility audit and the first screen', () => {
  const h = harness();

  const toEnd = async (page) => {
    await page.keyboard.press('End');
    const { slider } = playback(page);
    const end = await slider.getAttribute('max');
    await until(async () => (await slider.inputValue()) === end, 'the end');
  };
  const states = [
    ['the default page at its end', '', LAPTOP, toEnd],
    ['the Lessons menu', '#s=gc-pause', LAPTOP, async (page) => {
      await page.getByRole('button', { name: 'Lessons', exact: true }).click();
      await page.getByRole('navigation', { name: 'Lessons' }).waitFor();
    }],
    ['an interview stop', '#quiz=3', LAPTOP, async () => {}],
    ['an embed', '#s=gc-pause&embed=1', { viewport: { width: 640, height: 420 } }, async () => {}],
    ['dark mode', '', { ...LAPTOP, colorScheme: 'dark' }, toEnd],
    ['a 360 px phone', '', PHONE, toEnd],
  ];
  for (const [what, hash, options, reach] of states) {
    test(`axe-core: no serious or critical violation in ${what}`, async () => {
      const source = await readFile(AXE, 'utf8');
      const { context, page, problems } = await openApp(h.browser, `${h.url}${hash}`, options);
      try {
        await mounted(page);
        await reach(page);
        // Audit the page as it rests: a control's colours mid-transition (a button that
        // just changed state fades over 120 ms) are not what a reader sees.
        await page.evaluate(() => Promise.all(
          document.getAnimations().filter((a) => a instanceof CSSTransition).map((a) => a.finished.catch(() => {})),
        ));
        const { passes, bad } = await audit(page, source);
        assert.ok(passes > 20, `axe ran ${passes} passing rules`);
        assert.deepEqual(bad, [], `${what}: serious or critical violations`);
        assert.deepEqual(problems, []);
      } finally {
        await context.close();
      }
    });
  }

  for (const [name, options] of [['phone', PHONE], ['laptop', LAPTOP]]) {
    const { width, height } = options.viewport;
    test(`at ${width}×${height} the diagram and Play are on the first screen`, async () => {
      const { context, page, problems } = await openApp(h.browser, h.url, options);
      try {
        const diagram = page.locator('section.diagram');
        const play = playback(page).button('Play');
        await mounted(page);
        const inView = async (loc) => {
          const b = await loc.boundingBox();
          return b && b.y >= 0 && b.y + b.height <= height && b.x >= 0 && b.x + b.width <= width;
        };
        assert.ok(await inView(diagram), `the diagram's box is within ${width}×${height}`);
        assert.ok(await inView(play), 'the Play button is within the first screen');
        assert.equal(await page.evaluate(() => window.scrollY), 0);
        await page.screenshot({ path: join(SHOTS, `first-screen-${name}.png`) });
        assert.deepEqual(problems, []);
      } finally {
        await context.close();
      }
    });
  }
});

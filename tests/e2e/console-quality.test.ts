/**
 * The quality grade on the file detail page, in Chromium at 1280 and 390 px (issue 42, item 6):
 * a result graded uncertain says why above its figures, one graded good says so quietly, one
 * analysed before grades says nothing. Screenshots are saved (tests/support/console.ts).
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CHROMIUM_AVAILABLE,
  launchBrowser,
  newPage,
  screenshot,
  signInThroughUi,
} from '../support/console.ts';
import { counts, createFile, createUser, frames } from '../support/factories/index.ts';
import type { TestServer } from '../support/server.ts';

/** What the engine stores beside every grade (the contract's quality signals). */
const SIGNALS = {
  sizeRatio: 1.9,
  zoom: 1,
  scoreRatio: 0.9,
  weakShare: 0.1,
  sharpness: 120,
  brightness: 0.5,
  clippedShare: 0,
  shortTrackShare: null,
};
const REASON = 'Bees look much larger than in our training footage; counts may be off.';

describe.skipIf(!CHROMIUM_AVAILABLE)('quality grade on the detail page in Chromium', () => {
  let server: TestServer;
  let browser: Browser;
  let user: { email: string; password: string; id: number };
  const ids: Record<'uncertain' | 'good' | 'older', number> = { uncertain: 0, good: 0, older: 0 };

  beforeAll(async () => {
    const { startConsoleServer } = await import('../support/console.ts');
    server = await startConsoleServer({}, false);
    browser = await launchBrowser();
    user = await createUser(server, { role: 'USER', locations: ['Apiary North'] });
    const summary = (quality?: object) =>
      JSON.stringify({
        durationS: 0,
        width: 1280,
        height: 720,
        framesAnalysed: 1,
        sampleFps: 0,
        beeCoveragePct: 4,
        model: { name: 'hivesight-detector', version: '0.11.2', classes: ['bee', 'pollen'] },
        timing: { decodeMs: 0, inferenceMs: 0, trackingMs: 0, totalMs: 0 },
        analysedAt: '2026-11-28T10:00:00.000Z',
        ...(quality ? { quality } : {}),
      });
    const photo = (name: string, quality?: object) =>
      createFile(server, user.id, {
        original_name: name,
        counts: counts({ bee: 7 }),
        frames: frames([4], { bee: 7 }),
        summary_json: summary(quality),
      });
    ids.uncertain = await photo('close-up.png', {
      grade: 'uncertain',
      reason: REASON,
      signals: SIGNALS,
    });
    ids.good = await photo('board.png', {
      grade: 'good',
      reason: 'The footage looks like the footage the model learnt from.',
      signals: SIGNALS,
    });
    ids.older = await photo('older.png');
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const signedInPage = async (): Promise<Page> => {
    const { page } = await newPage(browser, server.url);
    await signInThroughUi(page, user.email, user.password);
    return page;
  };

  it('says why a result is uncertain, and that a good one is good', async () => {
    const p = await signedInPage();
    await p.goto(`/files/${ids.uncertain}`);
    const callout = p.getByTestId('result-quality');
    await callout.waitFor();
    expect(await callout.innerText()).toContain('Result quality: uncertain');
    expect(await callout.innerText()).toContain(REASON);
    for (const width of [1280, 390]) {
      await p.setViewportSize({ width, height: 900 });
      await screenshot(p, `quality-uncertain-${width}`);
    }
    await p.goto(`/files/${ids.good}`);
    await p.getByText('Result quality: good').waitFor();
    await p.goto(`/files/${ids.older}`);
    await p.getByRole('heading', { name: 'Detections', exact: true }).first().waitFor();
    expect(await p.getByTestId('result-quality').count()).toBe(0);
    await p.context().close();
  });
});

/**
 * The detail and comparison screens say what their figures are, in Chromium at 1280 and 390 px:
 * a 30 s clip with one unique worker but 2-4 honeybees on screen per frame, and a comparison of
 * a photo and a long video against 4 insects that gives no verdict; a summary CSV of files ticked
 * in the list; a Researcher's hornet alert switch. Screenshots are saved (tests/support/console.ts).
 */
import fs from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CHROMIUM_AVAILABLE,
  launchBrowser,
  newPage,
  screenshot,
  signInThroughUi,
} from '../support/console.ts';
import {
  counts,
  createFile,
  createUser,
  frames,
  grantProduct,
} from '../support/factories/index.ts';
import type { TestServer } from '../support/server.ts';

const WIDTHS = [1280, 390] as const;

describe.skipIf(!CHROMIUM_AVAILABLE)('result screens in Chromium', () => {
  let server: TestServer;
  let browser: Browser;
  let user: { email: string; password: string; id: number };
  let clipId = 0;
  let waspless = 0;

  beforeAll(async () => {
    const { startConsoleServer } = await import('../support/console.ts');
    server = await startConsoleServer({}, false);
    browser = await launchBrowser();
    user = await createUser(server, { role: 'USER', locations: ['Apiary North'] });
    const summary = {
      durationS: 30,
      width: 1280,
      height: 720,
      framesAnalysed: 150,
      sampleFps: 5,
      beeCoveragePct: 1.5,
      model: {
        name: 'hivesight-detector',
        version: '0.11.2',
        classes: ['bee', 'pollen', 'drone', 'wasp', 'hornet'],
      },
      timing: { decodeMs: 0, inferenceMs: 0, trackingMs: 0, totalMs: 0 },
      analysedAt: '2026-11-28T10:00:00.000Z',
    };
    // 150 sampled frames of 2, 3, 4, 3 honeybees: one unique worker, 3 on screen on average.
    const perFrame = Array.from({ length: 150 }, (_, i) => ({
      index: i,
      timeS: i * 0.2,
      counts: counts({ bee: [2, 3, 4, 3][i % 4]! }),
      beeCoveragePct: 1.5,
    }));
    clipId = await createFile(server, user.id, {
      original_name: 'entrance-30s.mp4',
      kind: 'video',
      counts: counts({ bee: 1 }),
      frames: perFrame,
      summary_json: JSON.stringify(summary),
    });
    // A model without a wasp class, for a user without the Researcher plan: each missing count
    // says why it is missing.
    waspless = await createFile(server, user.id, {
      original_name: 'no-wasp-model.png',
      counts: counts({ bee: 4, wasp: null, hornet: null }),
      frames: frames([2]),
      summary_json: JSON.stringify({
        ...summary,
        durationS: 0,
        framesAnalysed: 1,
        model: { ...summary.model, classes: ['bee', 'pollen', 'drone', 'hornet'] },
      }),
    });
    // Group one: a photo at 19.5 % and a 79-frame video at 0.1 %; group two: 4 insects.
    await createFile(server, user.id, {
      original_name: 'photo-19pct.png',
      counts: counts({ bee: 12, pollen: 1 }),
      frames: frames([19.5]),
    });
    await createFile(server, user.id, {
      original_name: 'video-79-frames.mp4',
      kind: 'video',
      counts: counts({ bee: 20, pollen: 2 }),
      frames: frames(Array.from({ length: 79 }, () => 0.1)),
    });
    await createFile(server, user.id, {
      original_name: 'few-a.png',
      counts: counts({ bee: 1, pollen: 2 }),
      frames: frames([3]),
      summary_json: JSON.stringify({
        ...summary,
        durationS: 0,
        framesAnalysed: 1,
        beeCoveragePct: 3,
      }),
    });
    await createFile(server, user.id, {
      original_name: 'few-b.png',
      counts: counts({ pollen: 1 }),
      frames: frames([2]),
    });
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

  it('labels unique insects and honeybees on screen on the detail page', async () => {
    const p = await signedInPage();
    await p.goto(`/files/${clipId}`);
    await p.getByRole('heading', { name: 'Unique insects' }).waitFor();
    await p.getByRole('heading', { name: 'Honeybees on screen' }).waitFor();
    const figure = (label: string) =>
      p.locator('.hs-count', { has: p.getByText(label, { exact: true }) }).locator('dd');
    expect(await figure('Worker bees').innerText()).toBe('1');
    expect(await figure('Mean per frame').innerText()).toBe('3.0');
    expect(await figure('Peak in one frame').innerText()).toBe('4');
    await p.getByText(/counted once, by tracking it across the 150 sampled frames/).waitFor();
    await p.getByRole('button', { name: 'Summary CSV' }).waitFor();
    for (const width of WIDTHS) {
      await p.setViewportSize({ width, height: 900 });
      await screenshot(p, `results-detail-${width}`);
    }
    await p.context().close();
  });

  it('says why a count is missing: the model has no such class, or the plan has no counts', async () => {
    const p = await signedInPage();
    await p.goto(`/files/${waspless}`);
    await p.getByRole('heading', { name: 'Detections', exact: true }).waitFor();
    const figure = (term: string) =>
      p
        .getByRole('term')
        .filter({ hasText: new RegExp(`^${term}$`) })
        .locator('xpath=following-sibling::dd[1]');
    expect(await figure('Worker bees').innerText()).toBe('4');
    expect(await figure('Wasps').innerText()).toBe('not available: this model has no wasp class');
    expect(await figure('Asian hornets').innerText()).toBe('your plan has no hornet counts');
    for (const width of WIDTHS) {
      await p.setViewportSize({ width, height: 900 });
      await screenshot(p, `results-missing-counts-${width}`);
    }
    await p.context().close();
  });

  it('downloads a summary CSV of the files ticked in the list', async () => {
    const p = await signedInPage();
    await p.goto('/file-upload-list');
    // Blueprint draws its own box over a visually hidden input: click its label, as a user does.
    const tick = (name: string) =>
      p.locator('label', { has: p.getByLabel(`Include ${name} in the summary CSV`) }).click();
    await tick('entrance-30s.mp4');
    await tick('few-a.png');
    const download = p.waitForEvent('download');
    await p.getByRole('button', { name: 'Summary CSV (2)' }).click();
    const lines = fs
      .readFileSync(await (await download).path(), 'utf8')
      .trim()
      .split('\n');
    expect(lines[0]).toMatch(
      /,mean_bees_on_screen,peak_bees_on_screen,quality,bees_in,bees_out,calibration$/,
    );
    expect(
      lines
        .slice(1)
        .map((l) => l.split(',')[0])
        .sort(),
    ).toEqual(['entrance-30s.mp4', 'few-a.png']);
    await p.context().close();
  });

  it('lets a Researcher turn hornet alert e-mails off', async () => {
    await grantProduct(server, user.email, 'Researcher', '2999-12-31');
    const p = await signedInPage();
    await p.goto('/beeplans');
    const toggle = p.getByLabel('E-mail me when a hornet is seen');
    // The switch shows the stored setting once it has loaded.
    await expect.poll(() => toggle.isChecked()).toBe(true);
    const saved = p.waitForResponse('**/api/account/settings');
    await p.locator('label', { has: toggle }).click();
    expect((await saved).request().method()).toBe('POST');
    await p.reload();
    await p.getByLabel('E-mail me when a hornet is seen').and(p.locator(':enabled')).waitFor({
      state: 'attached',
    });
    expect(await p.getByLabel('E-mail me when a hornet is seen').isChecked()).toBe(false);
    await p.context().close();
  });

  it('opens the comparison result at its top, the title clear of the sticky bar', async () => {
    const { page: p } = await newPage(browser, server.url, { width: 390, height: 700 });
    await signInThroughUi(p, user.email, user.password);
    await p.goto('/file-grouping');
    await p.getByLabel('Assign photo-19pct.png to').selectOption('group1');
    await p.getByLabel('Assign few-a.png to').selectOption('group2');
    const submit = p.getByRole('button', { name: 'Submit Groups for Computation' });
    await submit.scrollIntoViewIfNeeded();
    expect(await p.evaluate(() => window.scrollY)).toBeGreaterThan(0);
    await submit.click();
    await p.waitForURL('**/file-grouping/result');
    /** Whether the element is on screen and nothing (the sticky bar) lies over its middle. */
    const seen = (name: string | RegExp, role?: 'heading') =>
      (role ? p.getByRole(role, { name }) : p.getByText(name)).evaluate((el) => {
        const r = el.getBoundingClientRect();
        const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
        return r.top >= 0 && r.bottom <= window.innerHeight && el.contains(top);
      });
    expect(await seen('Hive Health Comparison', 'heading')).toBe(true);
    expect(await seen('Computation complete')).toBe(true);
    await screenshot(p, 'results-comparison-top-390');
    await p.context().close();
  });

  it('refuses a verdict on too few insects and says what the figures rest on', async () => {
    const p = await signedInPage();
    await p.goto('/file-grouping');
    for (const [name, group] of [
      ['photo-19pct.png', 'group1'],
      ['video-79-frames.mp4', 'group1'],
      ['few-a.png', 'group2'],
      ['few-b.png', 'group2'],
    ] as const) {
      await p.getByLabel(`Assign ${name} to`).selectOption(group);
    }
    await p.getByRole('button', { name: 'Submit Groups for Computation' }).click();
    await p.waitForURL('**/file-grouping/result');
    await p
      .getByText(/^Group 1 rests on 2 files and 35 honeybees; group 2 on 2 files and 4 honeybees\./)
      .waitFor();
    expect(await p.getByText('Too few insects to compare').count()).toBe(3);
    // Files are the unit: (19.5 + 0.1) / 2 = 9.8 %.
    await p.getByText('9.8%', { exact: true }).waitFor();
    for (const width of WIDTHS) {
      await p.setViewportSize({ width, height: 900 });
      await screenshot(p, `results-comparison-${width}`);
    }
    await p.context().close();
  });
});

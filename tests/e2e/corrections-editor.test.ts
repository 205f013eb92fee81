/**
 * The frame editor (issue 46) in Chromium: a user opens a processed photo, moves one box, adds
 * one, deletes one, changes a class and saves; the stored labels and the file's corrected counts
 * follow. On a 390 px phone with touch, a box is dragged by a finger and deleted. Screenshots of
 * the editor at 1280 and 390 px go to SCREENSHOT_DIR and to /tmp/shots46.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBeeScene, writeBeeImage, writeBeeVideo } from '../../fixtures/index.ts';
import {
  ADMIN,
  CHROMIUM_AVAILABLE,
  launchBrowser,
  newPage,
  newPhonePage,
  screenshot,
  signInThroughUi,
  startConsoleServer,
  uploadPhotoAs,
} from '../support/console.ts';
import { createCorrectedFrame, createFile, createUser } from '../support/factories/index.ts';
import { signIn } from '../support/server.ts';
import type { TestServer } from '../support/server.ts';

const SHOTS = process.env.SHOTS_DIR ?? '/tmp/shots46';

interface Label {
  cls: string;
  box: { x: number; y: number; width: number; height: number };
}

/** The editor alone (first: a full-page shot resizes the page), then the whole page from its top. */
async function shot(page: Page, name: string): Promise<void> {
  fs.mkdirSync(SHOTS, { recursive: true });
  const editor = page.getByRole('region', { name: 'Frame editor' });
  if ((await editor.count()) > 0)
    await editor.screenshot({ path: path.join(SHOTS, `${name}-editor.png`) });
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshot(page, name);
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
}

async function openEditor(page: Page, fileId: number): Promise<void> {
  await page.goto(`/files/${fileId}`);
  await page.getByRole('button', { name: 'Correct this photo' }).click();
  await expect.poll(() => boxes(page).count(), { timeout: 60_000 }).toBeGreaterThan(0);
}

const boxes = (page: Page) =>
  page.getByRole('region', { name: 'Frame editor' }).getByRole('button', { name: / box \d+$/ });

describe.skipIf(!CHROMIUM_AVAILABLE)('frame editor in Chromium', () => {
  let server: TestServer;
  let browser: Browser;
  let user: { id: number; email: string; password: string };

  /** A processed photo of synthetic bees, uploaded through the API (analysed in the request). */
  async function uploadPhoto(seed: number): Promise<number> {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hs-editor-'));
    const { file } = await writeBeeImage(
      path.join(dir, `entrance-${seed}.png`),
      randomBeeScene({ count: 6, seed }),
    );
    const { id } = await uploadPhotoAs(server, user, file, {
      location: 'Apiary North',
      description: 'Entrance, morning',
    });
    return id;
  }

  const storedLabels = async (fileId: number): Promise<Label[]> => {
    const row = (await server.app.db('corrected_frames').where('file_id', fileId).first()) as
      { labels_json: string } | undefined;
    return row ? (JSON.parse(row.labels_json) as Label[]) : [];
  };

  beforeAll(async () => {
    server = await startConsoleServer();
    browser = await launchBrowser();
    user = await createUser(server, { locations: ['Apiary North'] });
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('moves, adds, deletes and reclassifies boxes, saves, and the counts follow', async () => {
    const fileId = await uploadPhoto(1);
    const { context, page } = await newPage(browser, server.url);
    await signInThroughUi(page, user.email, user.password);
    await openEditor(page, fileId);
    const editor = page.getByRole('region', { name: 'Frame editor' });
    const before = await boxes(page).count();
    expect(before).toBeGreaterThanOrEqual(3);

    // Move the first box 40 px right and 30 px down on screen.
    const first = boxes(page).first();
    await first.scrollIntoViewIfNeeded();
    const at = (await first.boundingBox())!;
    await page.mouse.move(at.x + at.width / 2, at.y + at.height / 2);
    await page.mouse.down();
    await page.mouse.move(at.x + at.width / 2 + 20, at.y + at.height / 2 + 15, { steps: 4 });
    await page.mouse.move(at.x + at.width / 2 + 40, at.y + at.height / 2 + 30, { steps: 4 });
    await page.mouse.up();
    const moved = (await first.boundingBox())!;
    expect(moved.x - at.x).toBeCloseTo(40, -1);
    expect(moved.y - at.y).toBeCloseTo(30, -1);
    const firstName = (await first.getAttribute('aria-label'))!;

    // Delete the last box with the Delete key.
    await boxes(page).last().click();
    await page.keyboard.press('Delete');
    await expect.poll(() => boxes(page).count()).toBe(before - 1);

    // Add a box, and make it a drone by the toolbar.
    await editor.getByRole('button', { name: 'Add box' }).click();
    await expect.poll(() => boxes(page).count()).toBe(before);
    await editor.getByRole('button', { name: 'Drone', exact: true }).click();
    // Change the moved box's class by its key: to Worker (1), or to Pollen (2) where the model
    // already took it for a worker.
    const [key, retyped] = firstName.startsWith('Worker ') ? ['2', 'Pollen'] : ['1', 'Worker'];
    await first.click();
    await page.keyboard.press(key);
    await expect
      .poll(() => boxes(page).first().getAttribute('aria-label'))
      .toBe(`${retyped} box 1`);
    // What the editor shows now is what the save must store.
    const shown = await boxes(page).evaluateAll((els): string[] =>
      els.map((el) => el.getAttribute('aria-label')!.replace(/ box \d+$/, '')),
    );
    await page.setViewportSize({ width: 1280, height: 900 });
    await shot(page, 'editor-1280');

    await editor.getByRole('button', { name: 'Save corrections' }).click();
    await page.getByText('Corrections saved').first().waitFor();
    await page.getByText('1 frame corrected').waitFor();
    await page.getByText('Corrected', { exact: true }).first().waitFor();

    const labels = await storedLabels(fileId);
    expect(labels).toHaveLength(before);
    const tally = (cls: string) => labels.filter((l) => l.cls === cls).length;
    const shownTally = (label: string) => shown.filter((l) => l === label).length;
    expect([tally('bee'), tally('pollen'), tally('drone')]).toEqual([
      shownTally('Worker'),
      shownTally('Pollen'),
      shownTally('Drone'),
    ]);
    expect(tally('drone')).toBeGreaterThanOrEqual(1);
    const detail = (await (await page.request.get(`/api/files/${fileId}`)).json()) as {
      counts: Record<string, number | null>;
    };
    expect(detail.counts).toMatchObject({
      bee: tally('bee'),
      pollen: tally('pollen'),
      drone: tally('drone'),
    });
    // The page's counts are the corrected ones.
    const workers = page.locator('.hs-count', { hasText: 'Worker' }).locator('dd').first();
    await expect.poll(() => workers.textContent()).toBe(String(tally('bee')));
    await shot(page, 'detail-corrected-1280');

    // Saving again without a change is refused in words.
    await page.reload();
    await openEditor(page, fileId);
    expect(await editor.getByRole('button', { name: 'Save corrections' }).isDisabled()).toBe(true);
    await context.close();
  }, 240_000);

  it('on a 390 px phone a finger drags a box, and a box is deleted', async () => {
    const fileId = await uploadPhoto(2);
    const { context, page } = await newPhonePage(browser, server.url);
    await signInThroughUi(page, user.email, user.password);
    await page.goto(`/files/${fileId}`);
    await page.getByRole('button', { name: 'Correct this photo' }).tap();
    // A phone edits full screen (frame-editor-touch.test.ts tries its gestures).
    const editor = page.getByRole('dialog', { name: 'Frame editor, full screen' });
    const boxes = editor.getByRole('button', { name: / box \d+$/ });
    await expect.poll(() => boxes.count(), { timeout: 60_000 }).toBeGreaterThan(0);
    const before = await boxes.count();
    const first = boxes.first();
    const at = (await first.boundingBox())!;
    const cdp = await context.newCDPSession(page);
    const x = at.x + at.width / 2;
    const y = at.y + at.height / 2;
    const touch = (type: 'touchStart' | 'touchMove' | 'touchEnd', dx: number, dy: number) =>
      cdp.send('Input.dispatchTouchEvent', {
        type,
        touchPoints: type === 'touchEnd' ? [] : [{ x: x + dx, y: y + dy }],
      });
    await touch('touchStart', 0, 0);
    for (let i = 1; i <= 5; i += 1) await touch('touchMove', 4 * i, 3 * i);
    await touch('touchEnd', 20, 15);
    const moved = (await first.boundingBox())!;
    expect(moved.x - at.x).toBeCloseTo(20, -1);
    expect(moved.y - at.y).toBeCloseTo(15, -1);

    await boxes.last().tap();
    await editor.getByRole('button', { name: 'Delete box' }).tap();
    await expect.poll(() => boxes.count()).toBe(before - 1);
    await shot(page, 'editor-390');
    // Zooming keeps the selected box in view.
    await boxes.first().tap();
    await editor.getByRole('button', { name: 'Zoom in' }).tap();
    await editor.getByRole('button', { name: 'Zoom in' }).tap();
    const view = (await editor.getByLabel(/^Frame picture/).boundingBox())!;
    const inView = (await boxes.first().boundingBox())!;
    expect(inView.x).toBeGreaterThanOrEqual(view.x - 1);
    expect(inView.x + inView.width).toBeLessThanOrEqual(view.x + view.width + 1);
    expect(inView.y).toBeGreaterThanOrEqual(view.y - 1);
    expect(inView.y + inView.height).toBeLessThanOrEqual(view.y + view.height + 1);
    await shot(page, 'editor-390-zoomed');
    await editor.getByRole('button', { name: 'Save corrections' }).tap();
    await page.getByText('Corrections saved').first().waitFor();
    expect(await storedLabels(fileId)).toHaveLength(before - 1);
    await context.close();
  }, 240_000);
  it('the consent setting is off by default, turns on with its time, and off again', async () => {
    const { context, page } = await newPage(browser, server.url);
    await signInThroughUi(page, user.email, user.password);
    await page.goto('/beeplans');
    const toggle = page.getByRole('checkbox', {
      name: 'Allow hivesight to use my corrected frames to improve the model',
    });
    await page.getByText(/^Off\. You have corrected/).waitFor();
    expect(await toggle.isChecked()).toBe(false);
    await page.getByText('Allow hivesight to use my corrected frames').click();
    await page.getByText(/^On since /).waitFor();
    await shot(page, 'consent-1280');
    const on = (await (await page.request.get('/api/account/training-consent')).json()) as {
      consent: boolean;
      consent_at: string | null;
    };
    expect(on.consent).toBe(true);
    expect(on.consent_at).not.toBeNull();
    await page.getByText('Allow hivesight to use my corrected frames').click();
    await page.getByText(/^Off since /).waitFor();
    await context.close();
  }, 120_000);
  it('a hive with 5 corrected frames shows its accuracy on its page and on its files', async () => {
    const owner = await createUser(server, { locations: ['Orchard Hill'] });
    const box = (x: number) => ({ x, y: 10, width: 20, height: 20 });
    let lastFile = 0;
    // Five frames, 2 insects each; the model missed one insect on one frame: 10 % off, 90 % found.
    for (let i = 0; i < 5; i += 1) {
      lastFile = await createFile(server, owner.id, {
        original_name: `orchard-${i}.png`,
        location: 'Orchard Hill',
      });
      await createCorrectedFrame(server, {
        fileId: lastFile,
        stillName: `${String(i + 1).padStart(2, '0')}${'b'.repeat(30)}.jpg`,
        width: 320,
        height: 240,
        labels: [box(0), box(50)].map((b) => ({ cls: 'bee', box: b })),
        model: (i === 0 ? [box(0)] : [box(0), box(50)]).map((b) => ({
          cls: 'bee',
          score: 0.9,
          box: b,
        })),
      });
    }
    const sentence =
      "On 5 frames you corrected at this hive, the model's counts were within 10 %, and it found 90 % of the insects.";
    const { context, page } = await newPage(browser, server.url);
    await signInThroughUi(page, owner.email, owner.password);
    const locations = (await (await page.request.get('/api/locations')).json()) as {
      locations: Array<{ id: number; name: string }>;
    };
    const orchard = locations.locations.find((l) => l.name === 'Orchard Hill')!;
    await page.goto(`/locations/${orchard.id}/history`);
    await page.getByText(sentence).first().waitFor();
    await shot(page, 'hive-accuracy-1280');
    await page.goto(`/files/${lastFile}`);
    await page.getByText(sentence).first().waitFor();
    await context.close();
  }, 120_000);
  it('an admin downloads the training dataset: consenting users\u2019 frames only', async () => {
    const owner = server.client();
    await signIn(owner, user.email, user.password);
    await owner.post('/api/account/training-consent', { consent: true });
    const { context, page } = await newPage(browser, server.url);
    await signInThroughUi(page, ADMIN.email, ADMIN.password);
    await page.goto('/users-list');
    const listed = async (): Promise<string[]> => {
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('button', { name: 'Export training dataset' }).click(),
      ]);
      const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'hs-tar-')), 'set.tar');
      await download.saveAs(file);
      return execFileSync('tar', ['-tf', file], { encoding: 'utf8' }).trim().split('\n');
    };
    const withConsent = await listed();
    await shot(page, 'dataset-export-1280');
    // The two photos corrected above (desktop and phone), with their labels and the manifest.
    expect(withConsent.filter((n) => /\/images\/.+\.jpg$/.test(n))).toHaveLength(2);
    expect(withConsent.filter((n) => /\/labels\/.+\.txt$/.test(n))).toHaveLength(2);
    expect(withConsent.some((n) => n.endsWith('/manifest.json'))).toBe(true);
    expect(withConsent.some((n) => n.endsWith('/classes.txt'))).toBe(true);
    await owner.post('/api/account/training-consent', { consent: false });
    // Nothing consented any more: no empty tar, a sentence instead (issue 57).
    let downloads = 0;
    page.on('download', () => downloads++);
    await page.getByRole('button', { name: 'Export training dataset' }).click();
    await page.getByText(/^No consented corrected frames yet\./).waitFor();
    expect(downloads).toBe(0);
    await context.close();
  }, 120_000);
  it('a video\u2019s sampled frame opens from the frame picker while its media is kept', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hs-editor-video-'));
    const { file } = await writeBeeVideo(path.join(dir, 'walk.mp4'), { seconds: 1, fps: 10 });
    const zero = { bee: 2, pollen: 0, drone: 0, wasp: null, hornet: null };
    const fileId = await createFile(server, user.id, {
      kind: 'video',
      format: 'mp4',
      original_name: 'walk.mp4',
      media: fs.readFileSync(file),
      counts: zero,
      frames: [0, 1, 2, 3, 4].map((i) => ({
        index: i,
        timeS: i * 0.2,
        counts: { ...zero, bee: i === 2 ? 3 : 2 },
        beeCoveragePct: 1,
      })),
    });
    const { context, page } = await newPage(browser, server.url);
    await signInThroughUi(page, user.email, user.password);
    await page.goto(`/files/${fileId}`);
    const picker = page.getByRole('combobox', { name: 'Frame to correct' });
    await picker.waitFor();
    // The preview frame (the busiest) is offered first; pick another.
    expect(await picker.inputValue()).toBe('2');
    await picker.selectOption({ label: '0.6 s' });
    await page.getByRole('button', { name: 'Open frame' }).click();
    await page.getByText('Frame at 0.6 s').waitFor({ timeout: 60_000 });
    await shot(page, 'editor-video-1280');
    await context.close();
  }, 180_000);
});

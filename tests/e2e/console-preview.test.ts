/**
 * The detail page's preview in Chromium at 1280 and 390 px: a real 1600 px preview drawn by the
 * engine opens at full size in a dialog that Escape and its Close button shut, and the chart keeps
 * readable time ticks on a phone. Screenshots are saved (tests/support/console.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import { createCanvas } from '@napi-rs/canvas';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderPreview } from '../../engine/index.ts';
import type { Detection } from '../../engine/index.ts';
import { randomBeeScene, renderBeeScene } from '../../fixtures/index.ts';
import {
  CHROMIUM_AVAILABLE,
  launchBrowser,
  newPage,
  screenshot,
  signInThroughUi,
} from '../support/console.ts';
import { counts, createFile, createUser } from '../support/factories/index.ts';
import type { TestServer } from '../support/server.ts';

/** A 3840x1080 bee scene drawn into a 1600x450 preview by the engine, boxes on every bee. */
async function previewJpeg(): Promise<Buffer> {
  const scene = randomBeeScene({ width: 3840, height: 1080, count: 12, seed: 9, beeLength: 140 });
  const [w, h] = [1600, 450];
  const canvas = createCanvas(w, h);
  canvas.getContext('2d').drawImage(renderBeeScene(scene), 0, 0, w, h);
  const rgba = canvas.getContext('2d').getImageData(0, 0, w, h).data;
  const data = new Uint8Array(w * h * 3);
  for (let s = 0, d = 0; s < rgba.length; s += 4, d += 3) data.set(rgba.subarray(s, s + 3), d);
  const detections: Detection[] = scene.bees.map((bee) => ({
    cls: bee.pollen ? 'pollen' : 'bee',
    score: 0.8,
    box: {
      x: bee.x - bee.length * 0.6,
      y: bee.y - bee.length * 0.6,
      width: bee.length * 1.2,
      height: bee.length * 1.2,
    },
  }));
  return renderPreview(
    { index: 62, timeS: 12.4, width: w, height: h, data },
    detections,
    3840,
    1080,
    {
      timeS: 12.4,
    },
  );
}

describe.skipIf(!CHROMIUM_AVAILABLE)('preview zoom and phone chart in Chromium', () => {
  let server: TestServer;
  let browser: Browser;
  let user: { email: string; password: string; id: number };
  let clipId = 0;

  beforeAll(async () => {
    const { startConsoleServer } = await import('../support/console.ts');
    server = await startConsoleServer({}, false);
    browser = await launchBrowser();
    user = await createUser(server, { role: 'USER', locations: ['Apiary North'] });
    const jpeg = await previewJpeg();
    const previewName = `${'cd'.repeat(16)}.jpg`;
    for (const dir of ['previews', 'honeybee-previews']) {
      fs.mkdirSync(path.join(server.dataDir, dir), { recursive: true });
      fs.writeFileSync(path.join(server.dataDir, dir, previewName), jpeg);
    }
    clipId = await createFile(server, user.id, {
      original_name: 'entrance-20s.mp4',
      kind: 'video',
      counts: counts({ bee: 9, pollen: 3 }),
      frames: Array.from({ length: 100 }, (_, i) => ({
        index: i,
        timeS: i * 0.2,
        counts: counts({ bee: 6 + (i % 5), pollen: i % 3 }),
        beeCoveragePct: 2,
      })),
      preview_name: previewName,
      summary_json: JSON.stringify({
        durationS: 20,
        width: 3840,
        height: 1080,
        framesAnalysed: 100,
        sampleFps: 5,
        beeCoveragePct: 2,
        honeybeePreview: true,
        model: { name: 'hivesight-detector', version: '0.11.2', classes: ['bee', 'pollen'] },
        timing: { decodeMs: 0, inferenceMs: 0, trackingMs: 0, totalMs: 0 },
        analysedAt: '2026-11-28T10:00:00.000Z',
      }),
    });
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const detailPage = async (width: number): Promise<Page> => {
    const { page } = await newPage(browser, server.url, { width, height: 900 });
    await signInThroughUi(page, user.email, user.password);
    await page.goto(`/files/${clipId}`);
    await page.getByRole('heading', { name: 'Annotated preview' }).waitFor();
    return page;
  };

  for (const width of [1280, 390]) {
    it(`opens the preview at full size and closes it (${width} px)`, async () => {
      const p = await detailPage(width);
      const small = p.getByRole('img', {
        name: 'Annotated preview of entrance-20s.mp4 with a box around each detected insect',
        exact: true,
      });
      await small.waitFor();
      await p.getByRole('heading', { name: 'Insects on screen over time' }).waitFor();
      await screenshot(p, `preview-detail-${width}`);

      const zoom = p.getByRole('button', { name: 'Zoom the preview to full size' });
      await zoom.click();
      const dialog = p.getByRole('dialog', { name: 'Annotated preview of entrance-20s.mp4' });
      await dialog.waitFor();
      const full = dialog.getByRole('img', { name: /full size$/ });
      await full.waitFor();
      await expect
        .poll(() => full.evaluate((img: HTMLImageElement) => img.naturalWidth))
        .toBe(1600);
      // Shown at its own size, wider than the page's small copy and than a phone's screen.
      // (Polled: the dialog grows in with a short zoom transition.)
      await expect
        .poll(async () => (await full.boundingBox())?.width ?? 0)
        .toBeGreaterThanOrEqual(1599);
      expect((await small.boundingBox())!.width).toBeLessThan(1000);
      await screenshot(p, `preview-zoomed-${width}`);

      await p.keyboard.press('Escape');
      await dialog.waitFor({ state: 'hidden' });
      await zoom.click();
      await dialog.waitFor();
      // The footer's Close (the header's X is named Close too, but has no text).
      await dialog
        .getByRole('button', { name: 'Close', exact: true })
        .filter({ hasText: 'Close' })
        .click();
      await dialog.waitFor({ state: 'hidden' });
      await p.context().close();
    });
  }

  it('keeps the chart axes readable on a phone: real-size tick labels, fewer time ticks', async () => {
    for (const [width, timeTicks] of [
      [1280, 5],
      [390, 3],
    ] as const) {
      const p = await detailPage(width);
      const chart = p.getByRole('img', { name: /Insects on screen per analysed frame/ });
      await chart.waitFor();
      const ticks = chart.locator('text.hs-chart-tick', { hasText: / s$/ });
      await expect.poll(() => ticks.count()).toBe(timeTicks);
      // Tick text is drawn at 12 CSS px, not shrunk with the drawing.
      const box = await ticks.first().boundingBox();
      expect(box!.height).toBeGreaterThanOrEqual(11);
      const last = (await ticks.last().boundingBox())!;
      const frame = (await chart.boundingBox())!;
      expect(last.x + last.width).toBeLessThanOrEqual(frame.x + frame.width + 1);
      await p.context().close();
    }
  });
});

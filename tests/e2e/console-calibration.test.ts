/**
 * Issue 58 in Chromium, through the real server, its queue worker with the shipped model and the
 * built console: a picture of a board of bees is uploaded to Apiary North and counted with the
 * model's own settings; five frames of two other files there are corrected (seeded, as the
 * corrections editor has tests of its own) to say one insect each, a systematic over-count a
 * calibration can fix. On the hive's page the owner presses "Calibrate with my 5 corrected
 * frames", waits for the worker's fit, reads the leave-one-frame-out gain, turns the
 * calibration on, counts the picture again with it, and its page then names the calibration
 * its counts were made with.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBeeScene, writeBeeImage } from '../../fixtures/index.ts';
import {
  analysedOnServer,
  CHROMIUM_AVAILABLE,
  launchBrowser,
  newPage,
  screenshot,
  signInThroughUi,
  startConsoleServer,
  uploadPhotoAs,
} from '../support/console.ts';
import { engineAvailable } from '../support/engine.ts';
import { createCorrectedFrame, createFile, createUser } from '../support/factories/index.ts';
import type { TestUser } from '../support/factories/index.ts';
import type { TestServer } from '../support/server.ts';

const ENGINE = await engineAvailable();
if (!ENGINE.ok) console.warn(`[console-calibration] engine unavailable (${ENGINE.why}): skipped`);

const LOCATION = 'Apiary North';
const BOARD = { width: 800, height: 500 };

describe.skipIf(!CHROMIUM_AVAILABLE || !ENGINE.ok)('calibrated to your hive', () => {
  let server: TestServer;
  let browser: Browser;
  let user: TestUser;
  let dir: string;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hs-calibration-e2e-'));
    server = await startConsoleServer({}, true);
    browser = await launchBrowser();
    user = await createUser(server, { locations: [LOCATION] });
  }, 300_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  /** Five corrected stills of busy boards from two files whose media is gone: one insect each. */
  async function correctFiveFrames() {
    const stills = path.join(server.dataDir, 'stills');
    fs.mkdirSync(stills, { recursive: true });
    const erased = new Date().toISOString();
    const files = [
      await createFile(server, user.id, {
        location: LOCATION,
        kind: 'video',
        original_name: 'monday.mp4',
        media_deleted_at: erased,
      }),
      await createFile(server, user.id, {
        location: LOCATION,
        kind: 'video',
        original_name: 'tuesday.mp4',
        media_deleted_at: erased,
      }),
    ];
    for (let i = 0; i < 5; i += 1) {
      const stillName = `${crypto.randomBytes(16).toString('hex')}.jpg`;
      await writeBeeImage(
        path.join(stills, stillName),
        randomBeeScene({ count: 10, seed: 40 + i, ...BOARD }),
        'jpeg',
      );
      await createCorrectedFrame(server, {
        fileId: files[i % 2]!,
        frameIndex: Math.floor(i / 2),
        timeS: Math.floor(i / 2),
        stillName,
        ...BOARD,
        labels: [{ cls: 'bee', box: { x: 10, y: 10, width: 60, height: 30 } }],
      });
    }
  }

  it('calibrates on 5 corrected frames, states the gain, and counts again with it', async () => {
    const board = path.join(dir, 'board.png');
    await writeBeeImage(board, randomBeeScene({ count: 10, seed: 99, ...BOARD }));
    const { id: picture } = await uploadPhotoAs(server, user, board, {
      location: LOCATION,
      description: 'Before calibrating',
    });
    /** The picture's honeybees (the model reads these boards' bees as workers, pollen bees, drones). */
    const bees = async () => {
      const row: unknown = await server.app.db('files').where({ id: picture }).first('counts_json');
      const c = JSON.parse((row as { counts_json: string }).counts_json) as Record<string, number>;
      return (c.bee ?? 0) + (c.pollen ?? 0) + (c.drone ?? 0);
    };
    const before = await bees();
    const { page: p } = await newPage(browser, server.url);
    await signInThroughUi(p, user.email, user.password);

    // Four frames are not enough: the card says why and the button waits.
    await p.goto('/locations');
    await p.getByRole('link', { name: `History of ${LOCATION}` }).click();
    await p.getByRole('heading', { name: 'Calibration' }).waitFor();
    await p
      .getByText('A calibration needs at least 5 corrected frames from at least 2 files')
      .waitFor();
    await expect
      .poll(() =>
        p.getByRole('button', { name: 'Calibrate with my 0 corrected frames' }).isDisabled(),
      )
      .toBe(true);

    await correctFiveFrames();
    await p.reload();
    await p.getByText(`You have corrected 5 frames from 2 files at ${LOCATION}.`).waitFor();
    await p.getByRole('button', { name: 'Calibrate with my 5 corrected frames' }).click();
    await p.getByText('This page updates when it is done.').waitFor();

    // The worker fits it between files; the card polls until it is done.
    const today = new Date().toISOString().slice(0, 10);
    const label = `Calibrated for ${LOCATION} on 5 corrected frames (${today})`;
    await p
      .getByText(label, { exact: true })
      .waitFor({ timeout: 180_000 })
      .catch(async (err: unknown) => {
        const rows: unknown = await server.app.db('location_calibrations').select();
        const card = await p.locator('.hs-section-card').first().textContent();
        throw new Error(`${String(err)}\n${JSON.stringify(rows)}\n${card}`);
      });
    const gain = p.getByText(
      /Leave one frame out on 5 corrected frames, the count error is \d+ % without the calibration and \d+ % with it\./,
    );
    await gain.waitFor();
    expect(await gain.textContent()).not.toMatch(/inside the noise/);
    await p
      .getByText(`Off: counts at ${LOCATION} are made with the model’s own settings.`)
      .waitFor();

    // On: the picture counted before is offered to be counted again with it.
    const toggle = p.getByLabel('Use this calibration for this location’s counts');
    await p.locator('label', { has: toggle }).click();
    await expect.poll(() => toggle.isChecked()).toBe(true);
    await p.getByText(`On: every later analysis at ${LOCATION} runs with it.`).waitFor();
    await p.getByText('1 file of Apiary North was counted without this calibration').waitFor();
    await screenshot(p, 'calibration-card');
    await p.getByRole('button', { name: 'Count again with the calibration' }).click();
    await p
      .getByText('Count 1 file again with the calibration? It uses one of your uploads for today')
      .waitFor();
    await p.getByRole('button', { name: 'Count it again' }).click();
    await p.getByText('1 file will be counted with the calibration in a moment').waitFor();
    await analysedOnServer(server, 'board.png', 120_000);

    // The picture's page names the calibration its counts were made with.
    await p.goto(`/files/${picture}`);
    await p.getByRole('heading', { name: 'Detections', exact: true }).waitFor();
    await expect.poll(() => p.getByText(label, { exact: true }).count()).toBe(2);
    const row: unknown = await server.app.db('files').where({ id: picture }).first('summary_json');
    const summary = JSON.parse((row as { summary_json: string }).summary_json) as {
      calibration?: { label: string };
    };
    expect(summary.calibration?.label).toBe(label);
    // Fitted on boards where the beekeeper saw one insect where the model counted several, its
    // higher threshold keeps fewer of the model's boxes on this board too.
    const cal: unknown = await server.app.db('location_calibrations').first('calibration_json');
    expect(before).toBeGreaterThan(0);
    expect(await bees(), JSON.stringify(cal)).toBeLessThan(before);
  }, 420_000);
});

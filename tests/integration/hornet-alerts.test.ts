/**
 * Hornet alerts on SQLite and PostgreSQL with stored results (no engine needed): only a hornet
 * track that persists above the alert score, only for Researchers who have not turned alerts
 * off, once per file, and at most once per location per hour (a ManualClock moves the hour).
 * Then the whole path with the real engine and worker on a clip made from a hornet photo of
 * ../shared/datasets (skipped without it): hornet tracks stored, the hornet frame and the
 * honeybee-only preview written, and an alert exactly when a track persists.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { typed } from '../../server/db.ts';
import type { FileRow, StoredSummary } from '../../server/files/file-row.ts';
import { ManualClock } from '../../server/clock.ts';
import {
  alertHornets,
  hornetAlertScore,
  hornetSighting,
} from '../../server/files/hornet-alerts.ts';
import { capturingMailer } from '../support/capture.ts';
import { engineAvailable } from '../support/engine.ts';
import {
  counts,
  createFile,
  grantProduct,
  signedInUser,
  uploadFile,
} from '../support/factories/index.ts';
import { DB_KINDS, dbAvailable, startTestServer } from '../support/server.ts';
import type { TestClient, TestServer } from '../support/server.ts';

const HORNET_PHOTO = path.resolve(
  import.meta.dirname,
  '../../../shared/datasets/bees-hornets/valid/images/youtube-7_jpg.rf.65da824476c291b3e25850e92764ccc1.jpg',
);
const REAL = fs.existsSync(HORNET_PHOTO) && fs.existsSync('/usr/bin/ffmpeg');
const ENGINE = REAL ? await engineAvailable() : { ok: false, why: 'no hornet photo or ffmpeg' };
if (!ENGINE.ok) console.warn(`[hornet-alerts] real-engine alert skipped: ${ENGINE.why}`);

const HOUR = 60 * 60 * 1000;

/** Hits at 0.2 s steps from `startS`, each with the given score. */
const track = (startS: number, scores: number[]) => ({
  hits: scores.map((score, i) => ({ timeS: startS + i * 0.2, score })),
});

describe('hornetSighting', () => {
  it('needs one track on 3 sampled frames at the alert score', () => {
    expect(hornetSighting([track(1, [0.9, 0.9])])).toBeNull();
    expect(hornetSighting([track(1, [0.9, 0.45, 0.9, 0.3])])).toBeNull();
    // Three tracks of one frame each are not one hornet that stays.
    expect(hornetSighting([track(1, [0.9]), track(2, [0.9]), track(3, [0.9])])).toBeNull();
    expect(hornetSighting([track(5, [0.2, 0.6, 0.7, 0.8]), track(12, [0.9, 0.9, 0.9])])).toEqual({
      timeS: 5.2,
      frames: 3,
      bestScore: 0.8,
    });
  });
});

describe.each(DB_KINDS)('hornet alerts on %s', (kind) => {
  const clock = new ManualClock('2026-06-01T12:00:00.000Z');
  const mailer = capturingMailer();
  let server: TestServer;
  beforeAll(async () => {
    if (dbAvailable(kind)) server = await startTestServer(kind, { clock, mailer });
  });
  afterAll(async () => {
    await server?.stop();
  });

  const clip = (
    userId: number,
    hornetTracks: unknown[],
    location = 'Apiary North',
    hornetPreviewTimeS?: number,
    alertScores?: { hornet: number },
  ) =>
    createFile(server, userId, {
      kind: 'video',
      original_name: 'entrance.mp4',
      location,
      counts: counts({ bee: 5, hornet: hornetTracks.length }),
      summary_json: JSON.stringify({
        beeCoveragePct: 1,
        model: {
          name: 'hivesight-detector',
          version: '1',
          classes: ['bee', 'hornet'],
          alertScores,
        },
        hornetTracks,
        hornetPreviewTimeS,
      }),
    });

  it.skipIf(!dbAvailable(kind))(
    'alerts a Researcher on a hornet that stays, naming the time; nobody else',
    async () => {
      const researcher = await signedInUser(server);
      await grantProduct(server, researcher.email, 'Researcher', '2999-12-31');
      const free = await signedInUser(server);
      mailer.sent.length = 0;
      const brief = await clip(researcher.id, [track(1, [0.9, 0.9])]);
      expect(await alertHornets(server.app, brief)).toBe(false);
      const freeSeen = await clip(free.id, [track(1, [0.9, 0.9, 0.9])]);
      expect(await alertHornets(server.app, freeSeen)).toBe(false);
      const seen = await clip(researcher.id, [track(65, [0.9, 0.8, 0.7])], 'Apiary North', 65.2);
      expect(await alertHornets(server.app, seen)).toBe(true);
      expect(await alertHornets(server.app, seen)).toBe(false);
      expect(mailer.sent).toHaveLength(1);
      const mail = mailer.sent[0]!;
      expect(mail.to).toBe(researcher.email);
      expect(mail.subject).toBe('Hornet alert: a hornet at Apiary North, 1:05 into entrance.mp4');
      expect(mail.text).toContain(`The clearest hornet frame (1:05): `);
      expect(mail.text).toContain(`/api/files/${seen}/hornet.jpg`);
      expect(mail.text).toContain('on 3 sampled frames (best score 0.90)');
    },
  );

  it.skipIf(!dbAvailable(kind))(
    "judges with the alert score of the model's card that analysed the file",
    async () => {
      const researcher = await signedInUser(server);
      await grantProduct(server, researcher.email, 'Researcher', '2999-12-31');
      clock.advance(2 * HOUR);
      mailer.sent.length = 0;
      const seen = [track(0, [0.6, 0.62, 0.65])];
      // Above the default 0.5, below this card's 0.7: no alert.
      const strict = await clip(researcher.id, seen, 'Apiary East', undefined, { hornet: 0.7 });
      expect(await alertHornets(server.app, strict)).toBe(false);
      // Below the default, at this card's own lower alert score: an alert.
      const low = [track(0, [0.4, 0.42, 0.45])];
      const lenient = await clip(researcher.id, low, 'Apiary East', undefined, { hornet: 0.4 });
      expect(await alertHornets(server.app, lenient)).toBe(true);
      expect(mailer.sent).toHaveLength(1);
      expect(mailer.sent[0]!.text).toContain('on 3 sampled frames (best score 0.45)');
    },
  );

  it.skipIf(!dbAvailable(kind))('sends at most one alert per location per hour', async () => {
    const researcher = await signedInUser(server);
    await grantProduct(server, researcher.email, 'Researcher', '2999-12-31');
    mailer.sent.length = 0;
    const hornet = [track(0, [0.9, 0.9, 0.9])];
    expect(await alertHornets(server.app, await clip(researcher.id, hornet))).toBe(true);
    clock.advance(30 * 60 * 1000);
    // Same location within the hour: no second e-mail; another location: one.
    expect(await alertHornets(server.app, await clip(researcher.id, hornet))).toBe(false);
    expect(await alertHornets(server.app, await clip(researcher.id, hornet, 'Warehouse 4'))).toBe(
      true,
    );
    clock.advance(HOUR);
    expect(await alertHornets(server.app, await clip(researcher.id, hornet))).toBe(true);
    expect(mailer.sent.map((m) => m.subject)).toEqual([
      'Hornet alert: a hornet at Apiary North, 0:00 into entrance.mp4',
      'Hornet alert: a hornet at Warehouse 4, 0:00 into entrance.mp4',
      'Hornet alert: a hornet at Apiary North, 0:00 into entrance.mp4',
    ]);
  });

  it.skipIf(!dbAvailable(kind))('sends none to a user who turned alerts off', async () => {
    const researcher = await signedInUser(server);
    await grantProduct(server, researcher.email, 'Researcher', '2999-12-31');
    const settings = async () =>
      (await researcher.client.get('/api/account/settings')).json<{ hornet_alerts: boolean }>();
    expect(await settings()).toEqual({ hornet_alerts: true });
    const off = await researcher.client.post('/api/account/settings', { hornet_alerts: false });
    expect(off.status).toBe(200);
    expect(await settings()).toEqual({ hornet_alerts: false });
    expect(
      (await researcher.client.post('/api/account/settings', { hornet_alerts: 'no' })).status,
    ).toBe(400);
    mailer.sent.length = 0;
    clock.advance(2 * HOUR);
    const seen = await clip(researcher.id, [track(0, [0.9, 0.9, 0.9])]);
    expect(await alertHornets(server.app, seen)).toBe(false);
    expect(mailer.sent).toHaveLength(0);
  });
});

describe.skipIf(!ENGINE.ok || !dbAvailable('sqlite'))('a hornet clip through the worker', () => {
  const mailer = capturingMailer();
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer('sqlite', { worker: true, mailer });
  });
  afterAll(async () => {
    await server?.stop();
  });

  const upload = (client: TestClient, data: Buffer) =>
    uploadFile(client, { name: 'hornet.mp4', data, description: 'Hornet at the entrance' });

  it('stores the hornet tracks and frame, and alerts exactly when a track persists', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hs-hornet-'));
    const clipPath = path.join(dir, 'hornet.mp4');
    // Two seconds of one hornet photo: the hornet stays on every sampled frame.
    await execa('/usr/bin/ffmpeg', [
      ...['-v', 'error', '-y', '-loop', '1', '-framerate', '5', '-t', '2', '-i', HORNET_PHOTO],
      ...['-vf', 'scale=trunc(iw/2)*2:trunc(ih/2)*2', '-pix_fmt', 'yuv420p', clipPath],
    ]);
    const researcher = await signedInUser(server);
    await grantProduct(server, researcher.email, 'Researcher', '2999-12-31');
    const res = await upload(researcher.client, fs.readFileSync(clipPath));
    fs.rmSync(dir, { recursive: true, force: true });
    expect(res.status).toBe(201);
    const id = Number(
      /\/api\/files\/(\d+)\//.exec(res.json<{ file: { record: string[] } }>().file.record[3]!)?.[1],
    );
    let row: FileRow | undefined;
    await expect
      .poll(
        async () => {
          row = await typed<FileRow>(server.app.db('files').where('id', id).first());
          return row.status === 'PROCESSED' || row.status === 'FAILED';
        },
        { timeout: 110_000, interval: 50 },
      )
      .toBe(true);
    expect(row?.status).toBe('PROCESSED');
    const summary = JSON.parse(row!.summary_json!) as StoredSummary;
    expect(summary.hornetTracks?.length).toBeGreaterThan(0);
    expect(summary.hornetPreviewTimeS).toBeTypeOf('number');
    const stored = (d: string) => fs.readFileSync(path.join(server.dataDir, d, row!.preview_name!));
    expect([...stored('hornet-previews').subarray(0, 2)]).toEqual([0xff, 0xd8]);
    // The honeybee-only copy leaves the hornet boxes out, so it differs from the full preview.
    expect(stored('honeybee-previews').equals(stored('previews'))).toBe(false);

    const sighting = hornetSighting(summary.hornetTracks ?? [], hornetAlertScore(summary));
    // The alert is sent after the results are written: wait for it when one is due.
    if (sighting)
      await expect.poll(() => mailer.sent.length, { timeout: 5_000 }).toBeGreaterThan(0);
    expect(mailer.sent.length).toBe(sighting ? 1 : 0);
    if (sighting) expect(mailer.sent[0]?.text).toContain(`/api/files/${id}/hornet.jpg`);
  });
});

/**
 * Issue 54, item 4, over real HTTP on SQLite and PostgreSQL with the real worker loop (a
 * stand-in engine that counts 7 bees on every frame): `POST /api/files/:id/count-again` allows
 * one waiting re-count a file (two requests at once: one 202, one 409), counts against the
 * owner's daily uploads (429 with Retry-After past it), re-applies the owner's corrected frames
 * over the new counts, and leaves the video's retention counted from its first processing.
 */
import { describe, expect, it } from 'vitest';
import type { FileEngine } from '../../server/files/engine.ts';
import { ManualClock } from '../../server/clock.ts';
import { sweepRetention } from '../../server/files/retention.ts';
import { typed } from '../../server/db.ts';
import type { FileRow, StoredSummary } from '../../server/files/file-row.ts';
import { startWorker } from '../../server/queue/worker.ts';
import { analysisResult } from '../support/analysis.ts';
import {
  counts,
  createCorrectedFrame,
  createFile,
  signedInUser,
} from '../support/factories/index.ts';
import { DB_KINDS, dbAvailable, useTestServer } from '../support/server.ts';
import type { TestClient } from '../support/server.ts';

const T0 = '2026-05-04T08:00:00.000Z';
const HOUR = 3_600_000;
const line = (y: number) => ({
  kind: 'line',
  points: [
    [0, y],
    [1, y],
  ],
});

/** Counts 7 bees on each of five frames, and the traffic across the entrance it is given. */
const sevenBees: FileEngine = {
  probe: () => Promise.reject(new Error('not used')),
  analyse: (file, opts) => {
    const c = counts({ bee: 7 });
    return Promise.resolve(
      analysisResult(file, {
        media: { ...analysisResult(file).media, width: 640, height: 480, fps: 5 },
        counts: counts({ bee: 9 }),
        frames: [0, 1, 2, 3, 4].map((index) => ({
          index,
          timeS: index * 0.2,
          detections: [],
          counts: c,
          beeCoveragePct: 5,
        })),
        beeCoveragePct: 5,
        model: { name: 'm', version: '2', classes: ['bee'], inputWidth: 1, inputHeight: 1 },
        analysedAt: T0,
        ...(opts?.entrance
          ? {
              traffic: {
                entrance: opts.entrance,
                beesIn: 0,
                beesOut: 0,
                netFlow: 0,
                loops: 0,
                inPerMinute: 0,
                outPerMinute: 0,
                byClass: {},
                events: [],
              },
            }
          : {}),
      }),
    );
  },
};

const summary: StoredSummary = {
  durationS: 1,
  width: 640,
  height: 480,
  framesAnalysed: 5,
  sampleFps: 5,
  beeCoveragePct: 5,
  model: { name: 'm', version: '1', classes: ['bee'] },
  timing: { decodeMs: 0, inferenceMs: 0, trackingMs: 0, totalMs: 0 },
  analysedAt: T0,
};

const CORRECTED = [
  { cls: 'bee', box: { x: 10, y: 10, width: 40, height: 30 } },
  { cls: 'bee', box: { x: 100, y: 100, width: 40, height: 30 } },
  { cls: 'pollen', box: { x: 300, y: 200, width: 40, height: 30 } },
];

interface Detail {
  status: string;
  frames: Array<{ index: number; counts: Record<string, number | null> }>;
  on_screen: { mean_honeybees: number; peak_honeybees: number } | null;
}

describe.each(DB_KINDS)('count again on %s', (kind) => {
  const clock = new ManualClock(T0);
  // Free plan x 0.05: one upload or re-count a day.
  const t = useTestServer(kind, { clock, env: { UPLOAD_QUOTA_SCALE: '0.05' } });
  const run = it.skipIf(!dbAvailable(kind));

  async function locationId(client: TestClient, name: string): Promise<number> {
    const list = (await client.get('/api/locations')).json<{
      locations: Array<{ id: number; name: string }>;
    }>();
    return list.locations.find((l) => l.name === name)!.id;
  }

  /** A video processed at T0 (5 frames, 4 bees each; frame 3 corrected to 2 bees + 1 pollen). */
  async function processedVideo(userId: number): Promise<number> {
    const frames = [0, 1, 2, 3, 4].map((index) => ({
      index,
      timeS: index * 0.2,
      counts: index === 3 ? counts({ bee: 2, pollen: 1 }) : counts({ bee: 4 }),
      beeCoveragePct: 3,
    }));
    const id = await createFile(t.server, userId, {
      kind: 'video',
      format: 'mp4',
      original_name: 'entrance.mp4',
      status: 'PROCESSED',
      status_time: T0,
      created_at: T0,
      processed_at: T0,
      counts: counts({ bee: 6 }),
      frames,
      summary_json: JSON.stringify(summary),
      media: Buffer.from('the video bytes'),
    });
    const at = T0;
    await t.server.app.db('jobs').insert({
      file_id: id,
      priority: 0,
      state: 'done',
      attempts: 1,
      max_attempts: 3,
      created_at: at,
      updated_at: at,
    });
    await createCorrectedFrame(t.server, {
      fileId: id,
      frameIndex: 3,
      timeS: 0.6,
      stillName: 'a'.repeat(32) + '.jpg',
      labels: CORRECTED,
      authorId: userId,
      editedBy: userId,
      at,
    });
    return id;
  }

  const fileRow = (id: number) => typed<FileRow>(t.server.app.db('files').where('id', id).first());

  async function runWorkerUntilProcessed(id: number): Promise<void> {
    const worker = startWorker(t.server.app, { engine: sevenBees, pollMs: 20 });
    try {
      await expect
        .poll(async () => (await fileRow(id)).status, { timeout: 30_000, interval: 20 })
        .toBe('PROCESSED');
    } finally {
      await worker.stop();
    }
  }

  /** A user with a processed video at "Apiary North", whose entrance is then set; the clock at T0 + 1 h. */
  async function setUp() {
    clock.set(T0);
    const { client, id: userId } = await signedInUser(t.server);
    const video = await processedVideo(userId);
    const loc = await locationId(client, 'Apiary North');
    const entrance = (y: number) =>
      client.request('PUT', `/api/locations/${loc}/entrance`, { json: { entrance: line(y) } });
    expect((await entrance(0.5)).status).toBe(200);
    clock.set(new Date(Date.parse(T0) + HOUR));
    const countAgain = () => client.post(`/api/files/${video}/count-again`);
    return { client, video, entrance, countAgain };
  }

  run(
    'one waiting re-count a file: two at once get 202 and 409, a third 409 says why',
    async () => {
      const { countAgain } = await setUp();
      const both = await Promise.all([countAgain(), countAgain()]);
      expect(both.map((r) => r.status).sort()).toEqual([202, 409]);
      const again = await countAgain();
      expect(again.status).toBe(409);
      expect(again.json<{ message: string }>().message).toBe(
        'This video is already waiting to be counted again. Try again once that count is done.',
      );
    },
  );

  run(
    'a corrected frame keeps its labels over the new counts, and the file figures follow',
    async () => {
      const { client, video, countAgain } = await setUp();
      expect((await countAgain()).status).toBe(202);
      await runWorkerUntilProcessed(video);
      const detail = (await client.get(`/api/files/${video}`)).json<Detail>();
      // The model's new counts everywhere but on the corrected frame, which keeps its labels.
      expect(detail.frames.map((f) => f.counts.bee)).toEqual([7, 7, 7, 2, 7]);
      expect(detail.frames[3]?.counts).toMatchObject({ bee: 2, pollen: 1 });
      // The file's per-frame figures are computed from them: (4 x 7 + 3) / 5 honeybees.
      expect(detail.on_screen).toEqual(
        expect.objectContaining({ mean_honeybees: 6.2, peak_honeybees: 7 }),
      );
      const frame3 = (await client.get(`/api/files/${video}/frames/3`)).json<{
        corrected: boolean;
        labels: unknown[];
      }>();
      expect(frame3.corrected).toBe(true);
      expect(frame3.labels).toHaveLength(3);
    },
  );

  run('a re-count counts against the daily uploads: 429 with Retry-After past them', async () => {
    const { video, entrance, countAgain } = await setUp();
    expect((await countAgain()).status).toBe(202);
    await runWorkerUntilProcessed(video);
    // The entrance moved: the rules allow a new re-count, the day's count (one) does not.
    expect((await entrance(0.3)).status).toBe(200);
    const over = await countAgain();
    expect(over.status).toBe(429);
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(over.json<{ message: string }>().message).toMatch(
      /^Uploads and re-counts share your plan's daily limit of 1, and 1 are used today\. Please wait/,
    );
    expect((await fileRow(video)).status).toBe('PROCESSED');
  });

  run('retention counts from the first processing, not from the re-count', async () => {
    const { video, countAgain } = await setUp();
    expect((await countAgain()).status).toBe(202);
    await runWorkerUntilProcessed(video);
    // 24 hours after the FIRST processing the media goes, though it was re-counted an hour in.
    clock.set(new Date(Date.parse(T0) + 24 * HOUR + 60_000));
    await sweepRetention(t.server.app.db, {
      dataDir: t.server.dataDir,
      retentionHours: 24,
      clock,
    });
    expect((await fileRow(video)).media_deleted_at).not.toBeNull();
  });

  run('a video whose retention time has passed is not queued again', async () => {
    clock.set(T0);
    const { client, id: userId } = await signedInUser(t.server);
    const video = await processedVideo(userId);
    const loc = await locationId(client, 'Apiary North');
    await client.request('PUT', `/api/locations/${loc}/entrance`, {
      json: { entrance: line(0.5) },
    });
    clock.set(new Date(Date.parse(T0) + 25 * HOUR));
    const res = await client.post(`/api/files/${video}/count-again`);
    expect(res.status).toBe(409);
    expect(res.json<{ message: string }>().message).toMatch(/erased after processing/);
  });
});

/**
 * Corrections that teach the model (issue 46), over real HTTP on SQLite and PostgreSQL, with the
 * real engine detecting the still: a photo's frame is listed and opened with the model's boxes;
 * a save with no change or a box under 4 px is refused in words; a saved correction becomes the
 * photo's counts and the frame shows corrected; only the owner or an admin reaches it, and an
 * admin's save marks it reviewed; an erased video's frames are gone; the consent setting
 * records its time and can be revoked; a hive shows its accuracy from 5 corrected frames.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { randomBeeScene, writeBeeImage, writeBeeVideo } from '../../fixtures/index.ts';
import { sweepRetention } from '../../server/files/retention.ts';
import { engineAvailable } from '../support/engine.ts';
import {
  counts,
  createCorrectedFrame,
  createFile,
  frames,
  signedInUser,
} from '../support/factories/index.ts';
import { DB_KINDS, dbAvailable, useTestServer } from '../support/server.ts';

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}
interface FrameView {
  index: number;
  width: number;
  height: number;
  image_url: string;
  detections: Array<{ cls: string; score: number; box: Box }>;
  labels: Array<{ cls: string; box: Box }> | null;
  corrected: boolean;
  reviewed: boolean;
  file_counts?: Record<string, number | null>;
}

const engine = await engineAvailable();
if (!engine.ok)
  console.warn(`[corrections] engine unavailable, still tests skipped: ${engine.why}`);

let photo: Buffer;
beforeAll(async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hs-corrections-'));
  const { file } = await writeBeeImage(path.join(dir, 'bees.png'), randomBeeScene({ count: 5 }));
  photo = fs.readFileSync(file);
});

describe.each(DB_KINDS)('corrected frames on %s', (kind) => {
  const t = useTestServer(kind, { env: { WORKER_CONCURRENCY: '0' } });
  const run = it.skipIf(!dbAvailable(kind) || !engine.ok);
  const runDb = it.skipIf(!dbAvailable(kind));

  run('opens a photo frame, refuses junk, saves labels as the photo counts', async () => {
    const owner = await signedInUser(t.server);
    const id = await createFile(t.server, owner.id, {
      media: photo,
      counts: counts({ bee: 4 }),
      frames: frames([1], { bee: 4 }),
    });
    const list = (await owner.client.get(`/api/files/${id}/frames`)).json<{
      frames: Array<{ index: number; source: string; corrected: boolean }>;
    }>();
    expect(list.frames).toEqual([
      expect.objectContaining({ index: 0, source: 'photo', corrected: false }),
    ]);

    const opened = await owner.client.get(`/api/files/${id}/frames/0`);
    expect(opened.status).toBe(200);
    const frame = opened.json<FrameView>();
    expect(frame).toMatchObject({ width: 640, height: 480, labels: null, corrected: false });
    expect(Array.isArray(frame.detections)).toBe(true);
    const still = await owner.client.get(frame.image_url);
    expect(still.status).toBe(200);
    expect(still.headers.get('content-type')).toBe('image/jpeg');

    // The model's own boxes, saved as they are: nothing changed.
    const same = await owner.client.request('PUT', `/api/files/${id}/frames/0`, {
      json: { labels: frame.detections.map(({ cls, box }) => ({ cls, box })) },
    });
    expect(same.status).toBe(400);
    expect(same.json<{ message: string }>().message).toMatch(/^Nothing changed/);

    const tiny = await owner.client.request('PUT', `/api/files/${id}/frames/0`, {
      json: { labels: [{ cls: 'bee', box: { x: 10, y: 10, width: 3, height: 20 } }] },
    });
    expect(tiny.status).toBe(400);
    expect(tiny.json<{ message: string }>().message).toContain('smaller than 4 pixels');
    const badClass = await owner.client.request('PUT', `/api/files/${id}/frames/0`, {
      json: { labels: [{ cls: 'moth', box: { x: 10, y: 10, width: 30, height: 20 } }] },
    });
    expect(badClass.status).toBe(400);

    const labels = [
      { cls: 'bee', box: { x: 10, y: 10, width: 40, height: 30 } },
      { cls: 'bee', box: { x: 100, y: 100, width: 40, height: 30 } },
      // Half outside the picture: kept, clamped to it.
      { cls: 'pollen', box: { x: 620, y: 300, width: 40, height: 30 } },
    ];
    const saved = await owner.client.request('PUT', `/api/files/${id}/frames/0`, {
      json: { labels },
    });
    expect(saved.status).toBe(200);
    const body = saved.json<FrameView>();
    expect(body).toMatchObject({ corrected: true, reviewed: false });
    expect(body.labels?.[2]?.box).toEqual({ x: 620, y: 300, width: 20, height: 30 });
    expect(body.file_counts).toMatchObject({ bee: 2, pollen: 1, drone: 0 });
    const detail = (await owner.client.get(`/api/files/${id}`)).json<{
      counts: Record<string, number | null>;
      frames: Array<{ counts: Record<string, number | null> }>;
    }>();
    expect(detail.counts).toMatchObject({ bee: 2, pollen: 1, drone: 0 });
    expect(detail.frames[0]?.counts).toMatchObject({ bee: 2, pollen: 1 });
    const stored = (await t.server.app.db('corrected_frames').where('file_id', id).first()) as {
      labels_json: string;
      author_id: number | string;
    };
    expect(JSON.parse(stored.labels_json)).toHaveLength(3);
    expect(Number(stored.author_id)).toBe(owner.id);
    const relisted = (await owner.client.get(`/api/files/${id}/frames`)).json<{
      frames: Array<{ corrected: boolean }>;
      corrected: Array<{ counts: Record<string, number> }>;
    }>();
    expect(relisted.frames[0]?.corrected).toBe(true);
    expect(relisted.corrected[0]?.counts).toMatchObject({ bee: 2, pollen: 1 });

    // Saving the same corrected labels again is no change either.
    const again = await owner.client.request('PUT', `/api/files/${id}/frames/0`, {
      json: { labels: body.labels },
    });
    expect(again.status).toBe(400);
    // A wasp is a Researcher's class.
    const wasp = await owner.client.request('PUT', `/api/files/${id}/frames/0`, {
      json: { labels: [{ cls: 'wasp', box: { x: 10, y: 10, width: 40, height: 30 } }] },
    });
    expect(wasp.status).toBe(400);

    // Someone else: not found. An admin: may confirm it unchanged, which marks it reviewed.
    const stranger = await signedInUser(t.server);
    expect((await stranger.client.get(`/api/files/${id}/frames/0`)).status).toBe(404);
    const strangerSave = await stranger.client.request('PUT', `/api/files/${id}/frames/0`, {
      json: { labels },
    });
    expect(strangerSave.status).toBe(404);
    const admin = await signedInUser(t.server, { role: 'ADMIN' });
    const reviewed = await admin.client.request('PUT', `/api/files/${id}/frames/0`, {
      json: { labels: body.labels },
    });
    expect(reviewed.status).toBe(200);
    expect(reviewed.json<FrameView>().reviewed).toBe(true);
    // ...but not twice.
    const twice = await admin.client.request('PUT', `/api/files/${id}/frames/0`, {
      json: { labels: body.labels },
    });
    expect(twice.status).toBe(400);
  });

  runDb('an erased video offers only the frames corrected before', async () => {
    const owner = await signedInUser(t.server);
    const id = await createFile(t.server, owner.id, {
      kind: 'video',
      format: 'mp4',
      media_deleted_at: new Date().toISOString(),
      frames: frames([1, 2, 3], { bee: 1 }),
    });
    const list = (await owner.client.get(`/api/files/${id}/frames`)).json<{
      media_kept: boolean;
      frames: unknown[];
    }>();
    expect(list).toMatchObject({ media_kept: false, frames: [] });
    const gone = await owner.client.get(`/api/files/${id}/frames/1`);
    expect(gone.status).toBe(404);
    expect(gone.json<{ message: string }>().message).toContain('retention');
    const queued = await createFile(t.server, owner.id, { status: 'QUEUED' });
    expect((await owner.client.get(`/api/files/${queued}/frames/0`)).status).toBe(409);
  });

  runDb('consent is off by default, records its time, and can be revoked', async () => {
    const { client } = await signedInUser(t.server);
    const before = (await client.get('/api/account/training-consent')).json<{ consent: boolean }>();
    expect(before).toMatchObject({ consent: false, consent_at: null, revoked_at: null });
    const on = await client.post('/api/account/training-consent', { consent: true });
    expect(on.status).toBe(200);
    expect(on.json<{ consent_at: string }>().consent_at).toMatch(/^\d{4}-\d\d-\d\dT.*\+00:00$/);
    const off = (await client.post('/api/account/training-consent', { consent: false })).json<{
      consent: boolean;
      consent_at: string | null;
      revoked_at: string | null;
    }>();
    expect(off.consent).toBe(false);
    expect(off.consent_at).toBeNull();
    expect(off.revoked_at).not.toBeNull();
    expect((await client.post('/api/account/training-consent', { consent: 'yes' })).status).toBe(
      400,
    );
  });

  runDb('a hive shows its accuracy from five corrected frames on', async () => {
    const owner = await signedInUser(t.server, { locations: ['Orchard Hill'] });
    const box = (x: number) => ({ x, y: 0, width: 10, height: 10 });
    const insertCorrection = async (labels: number[], model: number[]) => {
      const id = await createFile(t.server, owner.id, { location: 'Orchard Hill' });
      await createCorrectedFrame(t.server, {
        fileId: id,
        labels: labels.map((x) => ({ cls: 'bee', box: box(x) })),
        model: model.map((x) => ({ cls: 'bee', score: 0.9, box: box(x) })),
      });
      return id;
    };
    for (let i = 0; i < 4; i += 1) await insertCorrection([0, 20], [0, 20]);
    const few = (await owner.client.get('/api/hive-accuracy?location=Orchard%20Hill')).json<{
      frames: number;
      sentence: string | null;
    }>();
    expect(few).toMatchObject({ frames: 4, enough: false, sentence: null });
    // The fifth frame: the model missed one of two bees. 10 insects, |1 - 2| = 1 off, 9 found.
    const last = await insertCorrection([0, 20], [0]);
    const five = (await owner.client.get(`/api/files/${last}/accuracy`)).json<{
      count_error_pct: number;
      found_pct: number;
      sentence: string;
    }>();
    expect(five.count_error_pct).toBeCloseTo(10);
    expect(five.found_pct).toBeCloseTo(90);
    expect(five.sentence).toBe(
      "On 5 frames you corrected at this hive, the model's counts were within 10 %, and it found 90 % of the insects.",
    );
    // The hive's page reads the same figure by location id; another user cannot.
    const listed = (await owner.client.get('/api/locations')).json<{
      locations: Array<{ id: number; name: string }>;
    }>().locations;
    const orchard = listed.find((l) => l.name === 'Orchard Hill')!;
    const byId = (await owner.client.get(`/api/locations/${orchard.id}/accuracy`)).json<{
      sentence: string;
    }>();
    expect(byId.sentence).toBe(five.sentence);
    const stranger = await signedInUser(t.server);
    expect((await stranger.client.get(`/api/locations/${orchard.id}/accuracy`)).status).toBe(404);
  });
  runDb('a corrected video frame keeps its still past retention only with consent', async () => {
    const stills = path.join(t.server.dataDir, 'stills');
    fs.mkdirSync(stills, { recursive: true });
    const day = 24 * 3600_000;
    const correctedVideo = async (userId: number, name: string) => {
      const id = await createFile(t.server, userId, {
        kind: 'video',
        format: 'mp4',
        media_deleted_at: new Date().toISOString(),
        frames: frames([1, 2], { bee: 1 }),
      });
      fs.writeFileSync(path.join(stills, name), photo);
      fs.writeFileSync(path.join(stills, name.replace('.jpg', '.json')), '{}');
      await createCorrectedFrame(t.server, {
        fileId: id,
        frameIndex: 1,
        timeS: 0.2,
        stillName: name,
        labels: [{ cls: 'bee', box: { x: 1, y: 1, width: 20, height: 20 } }],
      });
      return id;
    };
    const without = await signedInUser(t.server);
    const withConsent = await signedInUser(t.server);
    await withConsent.client.post('/api/account/training-consent', { consent: true });
    const gone = await correctedVideo(without.id, `${'c'.repeat(32)}.jpg`);
    const kept = await correctedVideo(withConsent.id, `${'d'.repeat(32)}.jpg`);
    // A cached still of a frame never saved, older than the retention time.
    const cache = path.join(stills, `${'e'.repeat(32)}.jpg`);
    fs.writeFileSync(cache, photo);
    const old = new Date(Date.now() - 2 * day);
    fs.utimesSync(cache, old, old);
    // Before the sweep, the erased video's corrected frame can still be opened.
    expect((await without.client.get(`/api/files/${gone}/frames/1`)).status).toBe(200);

    await sweepRetention(t.server.app.db, {
      dataDir: t.server.dataDir,
      retentionHours: 24,
      clock: { now: () => new Date() },
    });
    expect(fs.existsSync(path.join(stills, `${'c'.repeat(32)}.jpg`))).toBe(false);
    expect(fs.existsSync(path.join(stills, `${'d'.repeat(32)}.jpg`))).toBe(true);
    expect(fs.existsSync(cache)).toBe(false);
    // The labels and counts stay; the frame can no longer be opened.
    const list = (await without.client.get(`/api/files/${gone}/frames`)).json<{
      frames: unknown[];
      corrected: unknown[];
    }>();
    expect(list.frames).toHaveLength(0);
    expect(list.corrected).toHaveLength(1);
    expect((await without.client.get(`/api/files/${gone}/frames/1`)).status).toBe(404);
    expect((await withConsent.client.get(`/api/files/${kept}/frames/1`)).status).toBe(200);
  });
  run(
    'corrects a sampled frame of a kept video: that frame\u2019s counts change, not the tracks',
    async () => {
      const owner = await signedInUser(t.server);
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hs-corrections-video-'));
      const { file } = await writeBeeVideo(path.join(dir, 'walk.mp4'), { seconds: 1, fps: 10 });
      const id = await createFile(t.server, owner.id, {
        kind: 'video',
        format: 'mp4',
        media: fs.readFileSync(file),
        counts: counts({ bee: 3 }),
        frames: [0, 1, 2, 3, 4].map((i) => ({
          index: i,
          timeS: i * 0.2,
          counts: counts({ bee: i === 2 ? 4 : 2 }),
          beeCoveragePct: 1,
        })),
      });
      const list = (await owner.client.get(`/api/files/${id}/frames`)).json<{
        frames: Array<{ index: number; source: string }>;
      }>();
      expect(list.frames.map((f) => f.source)).toEqual([
        'sampled',
        'sampled',
        'preview',
        'sampled',
        'sampled',
      ]);
      const frame = (await owner.client.get(`/api/files/${id}/frames/3`)).json<FrameView>();
      expect(frame).toMatchObject({ index: 3, labels: null });
      expect(frame.width).toBeGreaterThan(0);
      const still = await owner.client.get(frame.image_url);
      expect(still.status).toBe(200);
      const saved = await owner.client.request('PUT', `/api/files/${id}/frames/3`, {
        json: {
          labels: [
            { cls: 'drone', box: { x: 10, y: 10, width: 30, height: 30 } },
            { cls: 'bee', box: { x: 60, y: 10, width: 30, height: 30 } },
          ],
        },
      });
      expect(saved.status).toBe(200);
      const detail = (await owner.client.get(`/api/files/${id}`)).json<{
        counts: Record<string, number | null>;
        frames: Array<{ index: number; counts: Record<string, number | null> }>;
      }>();
      expect(detail.counts).toMatchObject({ bee: 3, drone: 0 });
      expect(detail.frames[3]?.counts).toMatchObject({ bee: 1, drone: 1 });
      expect(detail.frames[2]?.counts).toMatchObject({ bee: 4 });
    },
  );
});

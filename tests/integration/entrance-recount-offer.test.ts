/**
 * Issue 57, items 3 and 7, over real HTTP on SQLite and PostgreSQL: the entrance editor's
 * answer names the location's videos that would count again with its entrance (media kept, not
 * counted with it, not waiting) and the uploads left today, and offers a clean still of each
 * video's preview frame (decoded by the real ffmpeg) while its media is kept; the upload dates
 * and descriptions of listed files (File Grouping) for their owner or an admin only.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { StoredSummary } from '../../server/files/file-row.ts';
import { createFile, signedInUser } from '../support/factories/index.ts';
import { DB_KINDS, dbAvailable, useTestServer } from '../support/server.ts';
import type { TestClient } from '../support/server.ts';

const LINE = {
  kind: 'line' as const,
  points: [
    [0, 0.5],
    [1, 0.5],
  ] as Array<[number, number]>,
};

const summary = (extra: Partial<StoredSummary> = {}): string =>
  JSON.stringify({
    durationS: 1,
    width: 160,
    height: 120,
    framesAnalysed: 1,
    sampleFps: 5,
    beeCoveragePct: 1,
    model: { name: 'm', version: '1', classes: ['bee'] },
    timing: { decodeMs: 0, inferenceMs: 0, trackingMs: 0, totalMs: 0 },
    analysedAt: new Date().toISOString(),
    honeybeePreview: true,
    ...extra,
  } satisfies StoredSummary);

let clip: Buffer | null = null;
/** A one-second 160x120 clip made with ffmpeg's test source. */
function smallClip(): Buffer {
  if (clip) return clip;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hs-recount-offer-'));
  const out = path.join(dir, 'clip.mp4');
  execFileSync('ffmpeg', [
    '-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc=size=160x120:rate=5', '-t', '1',
    '-pix_fmt', 'yuv420p', out,
  ]); // prettier-ignore
  clip = fs.readFileSync(out);
  fs.rmSync(dir, { recursive: true, force: true });
  return clip;
}

async function locationId(client: TestClient, name: string): Promise<number> {
  const list = (await client.get('/api/locations')).json<{
    locations: Array<{ id: number; name: string }>;
  }>();
  return list.locations.find((l) => l.name === name)!.id;
}

interface EntranceAnswer {
  frames: Array<{ file_id: number; still_url: string | null; preview_url: string | null }>;
  recount: { videos: Array<{ file_id: number; name: string }>; uploads_left_today: number };
}

describe.each(DB_KINDS)('the entrance editor’s re-count offer and clean frames on %s', (kind) => {
  const t = useTestServer(kind, { env: { UPLOAD_QUOTA_SCALE: '0.25' } });
  const run = it.skipIf(!dbAvailable(kind));

  run('lists the videos that count again, the uploads left, and clean stills', async () => {
    const { client, id } = await signedInUser(t.server);
    const loc = await locationId(client, 'Apiary North');
    const video = (name: string, extra: Parameters<typeof createFile>[2] = {}) =>
      createFile(t.server, id, {
        original_name: name,
        kind: 'video',
        format: 'mp4',
        media: smallClip(),
        summary_json: summary(),
        preview_name: 'preview.jpg',
        detections_json: JSON.stringify([{ index: 0, detections: [] }]),
        ...extra,
      });
    const kept = await video('kept.mp4');
    const erased = await video('erased.mp4', { media_deleted_at: new Date().toISOString() });
    const counted = await video('counted.mp4', {
      summary_json: summary({
        traffic: {
          entrance: LINE,
          beesIn: 0,
          beesOut: 0,
          netFlow: 0,
          loops: 0,
          inPerMinute: 0,
          outPerMinute: 0,
          byClass: {},
          events: [],
        },
      }),
    });
    const queued = await video('queued.mp4', { status: 'QUEUED' });
    await createFile(t.server, id, { original_name: 'photo.png' });
    await t.server.app.db('jobs').insert({
      file_id: kept,
      priority: 0,
      state: 'done',
      attempts: 1,
      max_attempts: 3,
      created_at: new Date().toISOString(),
      updated_at: new Date().toISOString(),
    });
    const url = `/api/locations/${loc}/entrance`;

    // No entrance yet: nothing counts again.
    const before = (await client.get(url)).json<EntranceAnswer>();
    expect(before.recount).toEqual({ videos: [], uploads_left_today: 5 });

    await client.request('PUT', url, { json: { entrance: LINE } });
    const answer = (await client.get(url)).json<EntranceAnswer>();
    expect(answer.recount.videos.map((v) => v.name)).toEqual(['kept.mp4']);
    expect(answer.recount.uploads_left_today).toBe(5);

    // A clean still while the media is kept, the preview once it is erased.
    const frame = (file: number) => answer.frames.find((f) => f.file_id === file);
    expect(frame(kept)?.still_url).toBe(`/api/files/${kept}/frames/0/still.jpg`);
    expect(frame(erased)).toMatchObject({
      still_url: null,
      preview_url: `/api/files/${erased}/preview.jpg`,
    });
    expect(frame(counted)?.still_url).toMatch(/\/frames\/0\/still\.jpg$/);
    expect(frame(queued)).toBeUndefined();
    const still = await client.get(frame(kept)!.still_url!);
    expect(still.status).toBe(200);
    expect(still.headers.get('content-type')).toBe('image/jpeg');

    // Counting it again uses one of the day's uploads and takes it off the offer.
    expect((await client.post(`/api/files/${kept}/count-again`)).status).toBe(202);
    const after = (await client.get(url)).json<EntranceAnswer>();
    expect(after.recount).toEqual({ videos: [], uploads_left_today: 4 });
  });

  run(
    'answers upload dates and descriptions of the owner’s files, all files for admins',
    async () => {
      const owner = await signedInUser(t.server);
      const a = await createFile(t.server, owner.id, {
        description: 'Morning, after rain',
        created_at: '2026-06-01T06:30:00.000Z',
      });
      const b = await createFile(t.server, owner.id, { description: 'Evening' });
      const facts = await owner.client.get(`/api/files/upload-facts?ids=${a},${b},999999`);
      expect(facts.status).toBe(200);
      const files = facts.json<{ files: Array<{ id: number; description: string }> }>().files;
      expect(files.map((f) => [f.id, f.description])).toEqual([
        [a, 'Morning, after rain'],
        [b, 'Evening'],
      ]);
      expect(facts.json()).toMatchObject({
        files: [{ uploaded_at: '2026-06-01T06:30:00.000+00:00' }, {}],
      });

      const stranger = await signedInUser(t.server);
      const none = await stranger.client.get(`/api/files/upload-facts?ids=${a}`);
      expect(none.json()).toEqual({ files: [] });
      const { client: admin } = await signedInUser(t.server, { role: 'ADMIN', locations: [] });
      const all = await admin.get(`/api/files/upload-facts?ids=${a}`);
      expect(all.json<{ files: unknown[] }>().files).toHaveLength(1);

      for (const bad of [
        '',
        '?ids=',
        '?ids=1,x',
        `?ids=${Array.from({ length: 501 }, (_, i) => i + 1).join(',')}`,
      ]) {
        const res = await owner.client.get(`/api/files/upload-facts${bad}`);
        expect(res.status).toBe(400);
        expect(res.json<{ error: { message: string } }>().error.message).toMatch(/files/);
      }
    },
  );
});

/**
 * Issue 57, item 1, over real HTTP on SQLite and PostgreSQL with the real worker, engine and
 * ffmpeg: a clip of 10 consecutive hive-entrance frames is analysed, and the frame editor opens
 * each sampled frame with exactly the detections its counts were made of (the video path's), not
 * with a new detection of the still. Saving them unchanged changes nothing; deleting one box
 * takes exactly one insect off that frame. Skips where ../shared/datasets is absent.
 */
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS, resolveMediaTools } from '../../engine/index.ts';
import type { ClassCounts } from '../../engine/index.ts';
import { typed } from '../../server/db.ts';
import type { FileRow, StoredFrame } from '../../server/files/file-row.ts';
import { enqueueJob } from '../../server/queue/jobs-repository.ts';
import { cachedFrameClip } from '../support/clip-cache.ts';
import { HIVE_VAL_FRAMES, hiveFramePresent } from '../support/hive-frame.ts';
import { waitFor } from '../support/wait.ts';
import { engineAvailable } from '../support/engine.ts';
import { createFile, signedInUser } from '../support/factories/index.ts';
import { DB_KINDS, dbAvailable, useTestServer } from '../support/server.ts';

interface FrameView {
  detections: Array<{ cls: string; score: number; box: object }>;
  counts?: ClassCounts;
}

const engine = await engineAvailable();
const present = hiveFramePresent('frame detections');

const total = (c: Partial<ClassCounts>) =>
  (c.bee ?? 0) + (c.pollen ?? 0) + (c.drone ?? 0) + (c.wasp ?? 0) + (c.hornet ?? 0);

describe.each(DB_KINDS)('the frame editor opens what was counted, on %s', (kind) => {
  const t = useTestServer(kind, { worker: true });
  const run = it.skipIf(!dbAvailable(kind) || !engine.ok || !present);

  run(
    'shows each frame its counted boxes; an unchanged save keeps, one deleted box takes one',
    async () => {
      const clip = await cachedFrameClip(
        HIVE_VAL_FRAMES.slice(0, 10),
        { tools: resolveMediaTools(), limits: { ...DEFAULT_LIMITS, timeoutMs: 600_000 } },
        { fps: 5 },
      );
      const owner = await signedInUser(t.server);
      const id = await createFile(t.server, owner.id, {
        kind: 'video',
        format: 'mp4',
        media: fs.readFileSync(clip.file),
        status: 'QUEUED',
        counts: null,
        frames: null,
      });
      const db = t.server.app.db;
      await enqueueJob(db, { fileId: id, priority: 0, maxAttempts: 1, now: new Date() });
      const row = await waitFor(
        'the clip to be processed',
        async () => {
          const r = await typed<FileRow>(db('files').where('id', id).first());
          return r.status === 'PROCESSED' ? r : undefined;
        },
        600_000,
        200,
      );
      const counted = JSON.parse(row.frames_json!) as StoredFrame[];
      expect(counted).toHaveLength(10);

      for (const frame of counted) {
        const view = (
          await owner.client.get(`/api/files/${id}/frames/${frame.index}`)
        ).json<FrameView>();
        const byClass: Partial<ClassCounts> = {};
        for (const d of view.detections) {
          const cls = d.cls as keyof ClassCounts;
          byClass[cls] = (byClass[cls] ?? 0) + 1;
        }
        for (const cls of ['bee', 'pollen', 'drone'] as const) {
          expect(byClass[cls] ?? 0, `frame ${frame.index} ${cls}`).toBe(frame.counts[cls] ?? 0);
        }
      }

      const busiest = counted.reduce((a, b) => (total(b.counts) > total(a.counts) ? b : a));
      const opened = (
        await owner.client.get(`/api/files/${id}/frames/${busiest.index}`)
      ).json<FrameView>();
      const labels = opened.detections.map(({ cls, box }) => ({ cls, box }));
      const same = await owner.client.request('PUT', `/api/files/${id}/frames/${busiest.index}`, {
        json: { labels },
      });
      expect(same.status).toBe(400);
      const unchanged = await typed<FileRow>(db('files').where('id', id).first());
      expect(unchanged.frames_json).toBe(row.frames_json);

      const saved = await owner.client.request('PUT', `/api/files/${id}/frames/${busiest.index}`, {
        json: { labels: labels.slice(1) },
      });
      expect(saved.status).toBe(200);
      const after = await typed<FileRow>(db('files').where('id', id).first());
      const frame = (JSON.parse(after.frames_json!) as StoredFrame[]).find(
        (f) => f.index === busiest.index,
      )!;
      expect(total(frame.counts)).toBe(total(busiest.counts) - 1);
    },
    900_000,
  );
});

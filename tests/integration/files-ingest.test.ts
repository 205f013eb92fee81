/**
 * `ingestFile` without HTTP, on SQLite and PostgreSQL, with a stand-in engine whose probe the
 * test sets: a video is moved to media/, recorded QUEUED with its job and counted for the day;
 * a video over the plan's length and a user over the quota leave nothing behind. The HTTP side
 * (multer, fields, the real engine) is in files-upload.test.ts.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { MediaInfo } from '../../engine/vocabulary.ts';
import type { FileEngine } from '../../server/files/engine.ts';
import { ingestFile, ingestStore } from '../../server/files/ingest.ts';
import { ensureMediaDirs, generatedName, mediaDirs } from '../../server/files/storage.ts';
import { typed } from '../../server/db.ts';
import { signedInUser } from '../support/factories/index.ts';
import { DB_KINDS, dbAvailable, useTestServer } from '../support/server.ts';

const VIDEO: MediaInfo = {
  kind: 'video',
  format: 'mp4',
  width: 320,
  height: 240,
  durationS: 20,
  fps: 10,
  sizeBytes: 5,
};

const probeOnly = (info: MediaInfo): FileEngine => ({
  probe: () => Promise.resolve(info),
  analyse: () => Promise.reject(new Error('videos are analysed by the worker')),
});

describe.each(DB_KINDS)('ingestFile on %s', (kind) => {
  const t = useTestServer(kind);

  async function setUp(uploadsPerDay = 5) {
    const app = t.server.app;
    const dirs = mediaDirs(app.config.dataDir);
    await ensureMediaDirs(dirs);
    const { id: userId } = await signedInUser(t.server);
    const incoming = path.join(dirs.incoming, generatedName());
    fs.writeFileSync(incoming, 'video');
    const store = ingestStore(app, {
      userId,
      quota: { uploadsPerDay, storageBytes: 1_000_000 },
      priority: 1,
    });
    const deps = { store, dirs, clock: app.clock, engine: () => Promise.resolve(probeOnly(VIDEO)) };
    const request = {
      userId,
      file: { path: incoming, originalName: 'C:\\clips\\hive.mp4', sizeBytes: 5 },
      description: 'morning',
      location: 'Apiary North',
      maxVideoSeconds: null as number | null,
    };
    return { app, dirs, userId, incoming, deps, request };
  }

  const jobFor = (fileId: number) =>
    typed<{ priority: number; state: string } | undefined>(
      t.server.app.db('jobs').where('file_id', fileId).first('priority', 'state'),
    );

  it.skipIf(!dbAvailable(kind))('stores, records and queues a video', async () => {
    const { app, dirs, userId, incoming, deps, request } = await setUp();
    const row = await ingestFile(deps, request);
    expect(row).toMatchObject({
      user_id: userId,
      original_name: 'hive.mp4',
      kind: 'video',
      format: 'mp4',
      size_bytes: 5,
      status: 'QUEUED',
      description: 'morning',
      location: 'Apiary North',
    });
    expect(fs.existsSync(incoming)).toBe(false);
    expect(fs.readFileSync(path.join(dirs.media, row.stored_name), 'utf8')).toBe('video');
    const job = await jobFor(row.id);
    expect(job?.state).toBe('queued');
    expect(Number(job?.priority)).toBe(1);
    const counted = await typed<Array<{ count: number }>>(
      app.db('upload_counts').where('user_id', userId).select('count'),
    );
    expect(counted.map((c) => Number(c.count))).toEqual([1]);
  });

  it.skipIf(!dbAvailable(kind))('leaves nothing behind when it refuses', async () => {
    const long = await setUp();
    const before = fs.readdirSync(long.dirs.media).length;
    await expect(ingestFile(long.deps, { ...long.request, maxVideoSeconds: 15 })).rejects.toThrow(
      /up to 15 seconds/,
    );
    expect(fs.existsSync(long.incoming)).toBe(false);

    const over = await setUp(0);
    await expect(ingestFile(over.deps, over.request)).rejects.toThrow();
    expect(fs.existsSync(over.incoming)).toBe(false);
    expect(fs.readdirSync(over.dirs.media).length).toBe(before);
    for (const userId of [long.userId, over.userId]) {
      expect(await t.server.app.db('files').where('user_id', userId).first('id')).toBeUndefined();
    }
  });
});

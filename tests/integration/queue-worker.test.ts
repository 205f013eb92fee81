/**
 * The analysis worker on SQLite and PostgreSQL: media retention (no engine needed; hornet alerts
 * are in hornet-alerts.test.ts), then with the real engine and ffmpeg: a queued video processed
 * by the in-process worker, a corrupt video FAILED with a reason, and a `hivesight worker` child
 * process killed with SIGKILL mid-job whose job another worker finishes, with one set of frames.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import type { ResultPromise } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FileRow } from '../../server/files/file-row.ts';
import { typed } from '../../server/db.ts';
import { ManualClock } from '../../server/clock.ts';
import { enqueueJob } from '../../server/queue/jobs-repository.ts';
import { sweepRetention } from '../../server/files/retention.ts';
import { waitFor } from '../support/wait.ts';
import { capturingMailer } from '../support/capture.ts';
import { engineAvailable } from '../support/engine.ts';
import { counts, createFile, signedInUser } from '../support/factories/index.ts';
import { DB_KINDS, dbAvailable, PG_URL, startTestServer } from '../support/server.ts';
import type { TestServer } from '../support/server.ts';

const ENGINE = await engineAvailable();
if (!ENGINE.ok)
  console.warn(`[queue-worker] engine unavailable (${ENGINE.why}): worker tests skipped`);
const FFMPEG = fs.existsSync('/usr/bin/ffmpeg') ? '/usr/bin/ffmpeg' : null;
const ROOT = path.resolve(import.meta.dirname, '..', '..');

async function makeVideo(seconds: number, file?: string): Promise<Buffer> {
  if (!FFMPEG) throw new Error('ffmpeg missing');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hs-video-'));
  const out = file ?? path.join(dir, 'v.mp4');
  await execa(FFMPEG, [
    '-y',
    '-loglevel',
    'error',
    '-f',
    'lavfi',
    '-i',
    'testsrc=size=320x240:rate=10',
    '-t',
    String(seconds),
    '-pix_fmt',
    'yuv420p',
    out,
  ]);
  const data = fs.readFileSync(out);
  fs.rmSync(dir, { recursive: true, force: true });
  return data;
}

const fileRow = async (server: TestServer, id: number) =>
  await typed<FileRow>(server.app.db('files').where('id', id).first());

/** Queues a video file row directly (media written under DATA_DIR/media). */
async function queueVideo(
  server: TestServer,
  userId: number,
  media: Buffer,
  priority = 0,
): Promise<number> {
  const id = await createFile(server, userId, {
    original_name: 'clip.mp4',
    kind: 'video',
    format: 'mp4',
    status: 'QUEUED',
    counts: null,
    frames: null,
    media,
  });
  await enqueueJob(server.app.db, { fileId: id, priority, maxAttempts: 3, now: new Date() });
  return id;
}

describe.each(DB_KINDS)('worker on %s', (kind) => {
  describe.skipIf(!dbAvailable(kind))('without the engine', () => {
    const clock = new ManualClock('2026-03-01T12:00:00.000Z');
    const mailer = capturingMailer();
    let server: TestServer;
    beforeAll(async () => {
      server = await startTestServer(kind, { clock, mailer });
    });
    afterAll(async () => {
      await server.stop();
    });

    it('deletes video media after the retention time and keeps pictures and results', async () => {
      const { client, id } = await signedInUser(server);
      const video = await createFile(server, id, {
        kind: 'video',
        format: 'mp4',
        media: Buffer.from('video'),
        status_time: '2026-02-28T11:00:00.000Z',
        counts: counts({ bee: 4 }),
      });
      const recent = await createFile(server, id, {
        kind: 'video',
        format: 'mp4',
        media: Buffer.from('video'),
        status_time: '2026-03-01T11:00:00.000Z',
      });
      const picture = await createFile(server, id, {
        media: Buffer.from('png'),
        status_time: '2026-01-01T11:00:00.000Z',
      });
      const deleted = await sweepRetention(server.app.db, {
        dataDir: server.dataDir,
        retentionHours: 24,
        clock,
      });
      expect(deleted).toBe(1);
      const row = await fileRow(server, video);
      expect(row.media_deleted_at).toBe('2026-03-01T12:00:00.000Z');
      expect(fs.existsSync(path.join(server.dataDir, 'media', row.stored_name))).toBe(false);
      expect((await fileRow(server, recent)).media_deleted_at).toBeNull();
      expect((await fileRow(server, picture)).media_deleted_at).toBeNull();
      const list = (await client.post('/api/get-uploaded-files-list/')).json<string[][]>();
      const byUrl = (fileId: number) =>
        list.find((r) => r[3] === `/api/files/${fileId}/report.csv`);
      expect(byUrl(video)?.[2]).toBe('');
      expect(byUrl(recent)?.[2]).toBe(`/api/files/${recent}/media`);
      expect((await client.get(`/api/files/${video}/media`)).status).toBe(404);
      const detail = (await client.get(`/api/files/${video}`)).json<{ counts: { bee: number } }>();
      expect(detail.counts.bee).toBe(4);
    });

    it('clears media and previews a crash left without a row, once they are stale', async () => {
      const { id } = await signedInUser(server);
      const kept = await createFile(server, id, { media: Buffer.from('png') });
      const keptRow = await fileRow(server, kept);
      const preview = 'a'.repeat(32) + '.jpg';
      await server.app.db('files').where({ id: kept }).update({ preview_name: preview });
      const dir = (sub: string) => path.join(server.dataDir, sub);
      fs.mkdirSync(dir('previews'), { recursive: true });
      const write = (file: string, ageHours: number) => {
        fs.writeFileSync(file, 'x');
        // mtime against the test clock, which the sweep reads "now" from
        const t = (clock.now().getTime() - ageHours * 3600_000) / 1000;
        fs.utimesSync(file, t, t);
      };
      const files = {
        keptMedia: path.join(dir('media'), keptRow.stored_name),
        keptPreview: path.join(dir('previews'), preview),
        orphanMedia: path.join(dir('media'), 'b'.repeat(32) + '.mp4'),
        orphanPreview: path.join(dir('previews'), 'c'.repeat(32) + '.jpg'),
        freshMedia: path.join(dir('media'), 'd'.repeat(32) + '.mp4'),
        freshPreview: path.join(dir('previews'), 'e'.repeat(32) + '.jpg'),
      };
      for (const [key, file] of Object.entries(files)) write(file, key.startsWith('fresh') ? 1 : 7);
      await sweepRetention(server.app.db, { dataDir: server.dataDir, retentionHours: 24, clock });
      const left = Object.fromEntries(
        Object.entries(files).map(([key, file]) => [key, fs.existsSync(file)]),
      );
      expect(left).toEqual({
        keptMedia: true,
        keptPreview: true,
        orphanMedia: false,
        orphanPreview: false,
        freshMedia: true,
        freshPreview: true,
      });
    });
  });

  describe.skipIf(!dbAvailable(kind) || !ENGINE.ok || !FFMPEG)('with the real engine', () => {
    let server: TestServer;
    beforeAll(async () => {
      server = await startTestServer(kind, { worker: true });
    });
    afterAll(async () => {
      await server.stop();
    });

    it('processes a queued video: QUEUED -> PROCESSED with frames and a report', async () => {
      const { client, id } = await signedInUser(server);
      const fileId = await queueVideo(server, id, await makeVideo(2));
      const row = await waitFor('PROCESSED', async () => {
        const r = await fileRow(server, fileId);
        return r.status === 'PROCESSED' || r.status === 'FAILED' ? r : null;
      });
      expect(row.status_reason).toBeNull();
      expect(row.status).toBe('PROCESSED');
      expect(row.processed_at).not.toBeNull();
      const frames = JSON.parse(row.frames_json ?? '[]') as unknown[];
      expect(frames.length).toBeGreaterThan(0);
      const csv = await client.get(`/api/files/${fileId}/report.csv`);
      expect(csv.status).toBe(200);
      expect(csv.text.trim().split('\n')).toHaveLength(frames.length + 1);
    });

    it('fails a corrupt video with a readable reason', async () => {
      const { id } = await signedInUser(server);
      const fileId = await queueVideo(server, id, Buffer.from('this is not a video at all'));
      const row = await waitFor('FAILED', async () => {
        const r = await fileRow(server, fileId);
        return r.status === 'FAILED' ? r : null;
      });
      expect(row.status_reason).toBeTruthy();
      expect(row.status_reason).not.toMatch(/undefined|\[object/);
    });
  });

  describe.skipIf(!dbAvailable(kind) || !ENGINE.ok || !FFMPEG)(
    'a worker process killed mid-job',
    () => {
      let server: TestServer;
      const children: ResultPromise[] = [];
      beforeAll(async () => {
        server = await startTestServer(kind);
      });
      afterAll(async () => {
        for (const c of children) c.kill('SIGKILL');
        await server.stop();
      });

      it('loses nothing: another worker finishes the job, with one set of frames', async () => {
        let databaseUrl = '';
        if (kind === 'postgres') {
          const res = await typed<{ rows: Array<{ s: string }> }>(
            server.app.db.raw('select current_schema() as s'),
          );
          databaseUrl = `${PG_URL}?options=${encodeURIComponent(`-c search_path=${res.rows[0]?.s ?? ''}`)}`;
        }
        const env = {
          DATA_DIR: server.dataDir,
          JOB_LEASE_SECONDS: '2',
          WORKER_CONCURRENCY: '1',
          ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
        };
        const startChild = () => {
          const child = execa('node', [path.join(ROOT, 'bin', 'hivesight.mjs'), 'worker'], {
            cwd: ROOT,
            env,
            reject: false,
            stdio: 'ignore',
          });
          children.push(child);
          return child;
        };
        const { id } = await signedInUser(server);
        const fileId = await queueVideo(server, id, await makeVideo(30));

        const first = startChild();
        await waitFor(
          'PROCESSING',
          async () => (await fileRow(server, fileId)).status === 'PROCESSING',
        );
        first.kill('SIGKILL');
        await first;
        expect((await fileRow(server, fileId)).status).toBe('PROCESSING');

        void startChild();
        const row = await waitFor(
          'PROCESSED after restart',
          async () => {
            const r = await fileRow(server, fileId);
            return r.status === 'PROCESSED' || r.status === 'FAILED' ? r : null;
          },
          180_000,
        );
        expect(row.status).toBe('PROCESSED');
        const job = await typed<{ attempts: number; state: string }>(
          server.app.db('jobs').where('file_id', fileId).first(),
        );
        expect(job.state).toBe('done');
        expect(Number(job.attempts)).toBe(2);
        const frames = JSON.parse(row.frames_json ?? '[]') as Array<{ index: number }>;
        expect(frames.length).toBeGreaterThan(0);
        expect(new Set(frames.map((f) => f.index)).size).toBe(frames.length);
      }, 240_000);
    },
  );
});

// Issue 44: per-plan daily upload counts and storage caps, refused over real HTTP on SQLite and
// PostgreSQL before the engine is involved (429 / 413, each with Retry-After and a message that
// says how long to wait); with the real engine, a deleted upload still counts for the day.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { FREE_QUOTA, PRODUCT_QUOTAS } from '../../server/files/quotas.ts';
import { engineAvailable } from '../support/engine.ts';
import { createFile, grantProduct, signedInUser, uploadFile } from '../support/factories/index.ts';
import { DB_KINDS, dbAvailable, useTestServer } from '../support/server.ts';
import type { TestClient, TestServer } from '../support/server.ts';

const MB = 1024 * 1024;
const ENGINE = await engineAvailable();
const FFMPEG = fs.existsSync('/usr/bin/ffmpeg') ? '/usr/bin/ffmpeg' : null;

const day = (offsetDays = 0) =>
  new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);

/** Records `count` accepted uploads for the user on a UTC day, as the upload route does. */
async function counted(server: TestServer, userId: number, count: number, onDay = day()) {
  await server.app.db('upload_counts').insert({ user_id: userId, day: onDay, count });
}

async function testPicture(): Promise<Buffer> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hs-quota-'));
  const out = path.join(dir, 'p.png');
  await execa(FFMPEG!, [
    '-y',
    '-loglevel',
    'error',
    '-f',
    'lavfi',
    '-i',
    'testsrc=size=320x240',
    '-frames:v',
    '1',
    out,
  ]);
  const data = fs.readFileSync(out);
  fs.rmSync(dir, { recursive: true, force: true });
  return data;
}

function uploadPicture(client: TestClient, bytes: number | Buffer = 1024) {
  const data = typeof bytes === 'number' ? new Uint8Array(bytes) : new Uint8Array(bytes);
  return uploadFile(client, { name: 'hive.png', data });
}

describe.each(DB_KINDS)('upload quotas on %s', (kind) => {
  describe.skipIf(!dbAvailable(kind))('', () => {
    const t = useTestServer(kind, { env: { ANALYSIS_THREAD: 'false' } });

    it("refuses a Free user's upload past the daily count with 429 until midnight UTC", async () => {
      const { client, id } = await signedInUser(t.server);
      await counted(t.server, id, FREE_QUOTA.uploadsPerDay);
      const res = await uploadPicture(client);
      expect(res.status).toBe(429);
      const retry = Number(res.headers.get('retry-after'));
      const midnight = new Date();
      midnight.setUTCHours(24, 0, 0, 0);
      expect(retry).toBeGreaterThan(0);
      expect(Math.abs(retry - (midnight.getTime() - Date.now()) / 1000)).toBeLessThan(5);
      const body = res.json<{ error: { code: string }; message: string }>();
      expect(body.error.code).toBe('RATE_LIMITED');
      expect(body.message).toMatch(/daily limit\. Please wait \d+ (hours|minutes?|seconds?)/);
      // Yesterday's uploads do not count.
      const other = await signedInUser(t.server);
      await counted(t.server, other.id, FREE_QUOTA.uploadsPerDay, day(-1));
      expect((await uploadPicture(other.client)).status).not.toBe(429);
    });

    it('a Premium user has a larger daily count', async () => {
      const { client, id, email } = await signedInUser(t.server);
      await grantProduct(t.server, email, 'Bees Premium Subscription', '2099-12-31');
      await counted(t.server, id, FREE_QUOTA.uploadsPerDay);
      // Past the quota check, the content check refuses these bytes (not a picture).
      expect((await uploadPicture(client)).status).toBe(415);
      expect(PRODUCT_QUOTAS['Bees Premium Subscription'].uploadsPerDay).toBeGreaterThan(
        FREE_QUOTA.uploadsPerDay,
      );
    });

    it('refuses a file that does not fit the storage cap with 413; erased videos free room', async () => {
      const { client, id } = await signedInUser(t.server);
      await createFile(t.server, id, { size_bytes: FREE_QUOTA.storageBytes - 2 * MB });
      const res = await uploadPicture(client, 3 * MB);
      expect(res.status).toBe(413);
      expect(res.headers.get('retry-after')).toBeNull(); // pictures are kept
      expect(res.json<{ message: string }>().message).toMatch(/Delete files you no longer need/);
      expect(res.json<{ message: string }>().message).toMatch(
        /Your files use 498 MB of your plan's 500 MB of storage, and this file \(3 MB\) does not fit\./,
      );
      // A processed video is erased 24 h after processing, and that frees the room.
      const hourAgo = new Date(Date.now() - 3_600_000).toISOString();
      await createFile(t.server, id, {
        kind: 'video',
        format: 'mp4',
        size_bytes: 8 * MB,
        processed_at: hourAgo,
        created_at: hourAgo,
      });
      const full = await uploadPicture(client, 1024);
      expect(full.status).toBe(413);
      const retry = Number(full.headers.get('retry-after'));
      expect(retry).toBeGreaterThan(22 * 3600);
      expect(retry).toBeLessThanOrEqual(23 * 3600);
      expect(full.json<{ message: string }>().message).toMatch(/room frees up in about 23 hours/);
      // An erased video no longer counts.
      await t.server.app
        .db('files')
        .where({ user_id: id, kind: 'video' })
        .update({ media_deleted_at: new Date().toISOString() });
      expect((await uploadPicture(client, 1024)).status).toBe(415);
    });
  });

  describe.skipIf(!dbAvailable(kind) || !ENGINE.ok || !FFMPEG)('with the real engine', () => {
    // One upload a day for Free: 20 x 0.05.
    const t = useTestServer(kind, {
      env: { ANALYSIS_THREAD: 'false', UPLOAD_QUOTA_SCALE: '0.05' },
    });

    it('a deleted upload still counts for the day', async () => {
      const { client } = await signedInUser(t.server);
      const picture = await testPicture();
      const first = await uploadPicture(client, picture);
      expect(first.status, first.text).toBe(201);
      const list = (await client.post('/api/get-uploaded-files-list/')).json<string[][]>();
      expect(list).toHaveLength(1);
      const reportUrl = list[0]?.[3] ?? '';
      const fileId = /\/api\/files\/(\d+)\//.exec(reportUrl)?.[1];
      expect(fileId).toBeTruthy();
      expect((await client.request('DELETE', `/api/files/${fileId}`)).status).toBe(200);
      expect((await uploadPicture(client, picture)).status).toBe(429);
    });
  });
});

// Issue 44: per-plan daily upload counts and storage caps, refused over real HTTP on SQLite and
// PostgreSQL before the engine is involved (429 / 413, each with Retry-After and a message that
// says how long to wait).
import { describe, expect, it } from 'vitest';
import { FREE_QUOTA, PRODUCT_QUOTAS } from '../../server/files/quotas.ts';
import type { TestClient } from './server-helpers.ts';
import { DB_KINDS, dbAvailable, grant, useTestServer } from './server-helpers.ts';
import { insertFile, userWithLocations } from './files-helpers.ts';

const MB = 1024 * 1024;

function uploadPicture(client: TestClient, bytes = 1024) {
  const form = new FormData();
  form.append('file_description', 'entrance');
  form.append('location', 'Apiary North');
  form.append('file_data', new Blob([new Uint8Array(bytes)]), 'hive.png');
  return client.request('POST', '/api/upload_docs/', { body: form });
}

describe.each(DB_KINDS)('upload quotas on %s', (kind) => {
  describe.skipIf(!dbAvailable(kind))('', () => {
    const t = useTestServer(kind, { env: { ANALYSIS_THREAD: 'false' } });

    it("refuses a Free user's upload past the daily count with 429 until midnight UTC", async () => {
      const { client, id } = await userWithLocations(t.server);
      for (let i = 0; i < FREE_QUOTA.uploadsPerDay; i += 1) await insertFile(t.server, id);
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
      const other = await userWithLocations(t.server);
      const yesterday = new Date(Date.now() - 86_400_000).toISOString();
      for (let i = 0; i < FREE_QUOTA.uploadsPerDay; i += 1)
        await insertFile(t.server, other.id, { created_at: yesterday });
      expect((await uploadPicture(other.client)).status).not.toBe(429);
    });

    it('a Premium user has a larger daily count', async () => {
      const { client, id, email } = await userWithLocations(t.server);
      await grant(t.server, email, 'Bees Premium Subscription', '2099-12-31');
      for (let i = 0; i < FREE_QUOTA.uploadsPerDay; i += 1) await insertFile(t.server, id);
      // Past the quota check, the content check refuses these bytes (not a picture).
      expect((await uploadPicture(client)).status).toBe(415);
      expect(PRODUCT_QUOTAS['Bees Premium Subscription'].uploadsPerDay).toBeGreaterThan(
        FREE_QUOTA.uploadsPerDay,
      );
    });

    it('refuses a file that does not fit the storage cap with 413; erased videos free room', async () => {
      const { client, id } = await userWithLocations(t.server);
      await insertFile(t.server, id, { size_bytes: FREE_QUOTA.storageBytes - 2 * MB });
      const res = await uploadPicture(client, 3 * MB);
      expect(res.status).toBe(413);
      expect(res.headers.get('retry-after')).toBeNull(); // pictures are kept
      expect(res.json<{ message: string }>().message).toMatch(
        /Your files use 498 MB of your plan's 500 MB of storage, and this file \(3 MB\) does not fit\./,
      );
      // A processed video is erased 24 h after processing, and that frees the room.
      const hourAgo = new Date(Date.now() - 3_600_000).toISOString();
      await insertFile(t.server, id, {
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
});

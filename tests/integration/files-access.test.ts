/**
 * The files list and per-file routes over real HTTP on SQLite and PostgreSQL: positional records,
 * detail JSON, media streaming (with Range), report conflicts, and that another user's file is a
 * 404 through every route that takes a file id (admins excepted).
 */
import { describe, expect, it } from 'vitest';
import { counts, createFile, frames, signedInUser } from '../support/factories/index.ts';
import { DB_KINDS, dbAvailable, useTestServer } from '../support/server.ts';

const ISO_WITH_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?[+-]\d{2}:\d{2}$/;

describe.each(DB_KINDS)('file routes on %s', (kind) => {
  const t = useTestServer(kind);

  it.skipIf(!dbAvailable(kind))(
    'lists the user\u2019s own files newest first as positional records',
    async () => {
      const { client, id, email } = await signedInUser(t.server);
      const other = await signedInUser(t.server);
      await createFile(t.server, other.id, { original_name: 'theirs.png' });
      const older = await createFile(t.server, id, {
        original_name: 'old.mp4',
        kind: 'video',
        status: 'PROCESSED',
        created_at: '2025-01-01T10:00:00.000Z',
        status_time: '2025-01-01T10:05:00.000Z',
        media_deleted_at: '2025-01-02T10:05:00.000Z',
      });
      const newer = await createFile(t.server, id, {
        original_name: 'new.png',
        location: 'Warehouse 4',
        created_at: '2025-02-01T10:00:00.000Z',
      });
      // The body's e-mail is ignored: the signed-in user is who counts.
      const res = await client.post('/api/get-uploaded-files-list/', {
        email_address: other.email,
      });
      expect(res.status).toBe(200);
      const list = res.json<string[][]>();
      expect(list).toHaveLength(2);
      expect(list[0]).toEqual([
        'new.png',
        'PROCESSED',
        `/api/files/${newer}/media`,
        `/api/files/${newer}/report.csv`,
        'Warehouse 4',
        expect.stringMatching(ISO_WITH_OFFSET),
      ]);
      expect(list[1]).toEqual([
        'old.mp4',
        'PROCESSED',
        '',
        `/api/files/${older}/report.csv`,
        'Apiary North',
        '2025-01-01T10:05:00.000+00:00',
      ]);
      expect(email).toBeTruthy();
    },
  );

  it.skipIf(!dbAvailable(kind))(
    'answers detail JSON with counts, frames and research classes per plan',
    async () => {
      const { client, id } = await signedInUser(t.server);
      const fileId = await createFile(t.server, id, {
        counts: counts({ bee: 3, pollen: 1, hornet: 2 }),
        frames: frames([12.5], { bee: 3, pollen: 1, hornet: 2 }),
      });
      const res = await client.get(`/api/files/${fileId}`);
      expect(res.status).toBe(200);
      const d = res.json<{
        counts: Record<string, number | null>;
        frames: Array<{ bee_coverage_pct: number }>;
        status_time: string;
        media_url: string;
      }>();
      expect(d.counts).toEqual({ bee: 3, pollen: 1, drone: 0, wasp: null, hornet: null });
      expect(d.frames[0]?.bee_coverage_pct).toBe(12.5);
      expect(d.status_time).toMatch(ISO_WITH_OFFSET);
      expect(d.media_url).toBe(`/api/files/${fileId}/media`);
    },
  );

  it.skipIf(!dbAvailable(kind))(
    'streams media with its content type and honours Range',
    async () => {
      const { client, id } = await signedInUser(t.server);
      const bytes = Buffer.from('0123456789abcdef');
      const fileId = await createFile(t.server, id, { kind: 'video', format: 'mp4', media: bytes });
      const full = await client.get(`/api/files/${fileId}/media`);
      expect(full.status).toBe(200);
      expect(full.headers.get('content-type')).toBe('video/mp4');
      expect(full.text).toBe('0123456789abcdef');
      const part = await client.get(`/api/files/${fileId}/media`, { range: 'bytes=2-5' });
      expect(part.status).toBe(206);
      expect(part.text).toBe('2345');
      expect(part.headers.get('content-range')).toBe('bytes 2-5/16');
    },
  );

  it.skipIf(!dbAvailable(kind))(
    'answers 409 for the report of a file not processed yet',
    async () => {
      const { client, id } = await signedInUser(t.server);
      const queued = await createFile(t.server, id, {
        kind: 'video',
        status: 'QUEUED',
        counts: null,
      });
      const res = await client.get(`/api/files/${queued}/report.csv`);
      expect(res.status).toBe(409);
      expect(res.json<{ message: string }>().message).toMatch(/not ready yet/);
      const failed = await createFile(t.server, id, {
        kind: 'video',
        status: 'FAILED',
        status_reason: 'The video is corrupt.',
        counts: null,
      });
      const res2 = await client.get(`/api/files/${failed}/report.csv`);
      expect(res2.status).toBe(409);
      expect(res2.json<{ message: string }>().message).toMatch(/The video is corrupt/);
    },
  );

  it.skipIf(!dbAvailable(kind))(
    'hides another user\u2019s file behind a 404 on every route; admins see it',
    async () => {
      const owner = await signedInUser(t.server);
      const stranger = await signedInUser(t.server);
      const admin = await signedInUser(t.server, { role: 'ADMIN' });
      const fileId = await createFile(t.server, owner.id, {
        original_name: 'private.png',
        media: Buffer.from('png-bytes'),
        preview_name: null,
      });
      const routes = [
        `/api/files/${fileId}`,
        `/api/files/${fileId}/media`,
        `/api/files/${fileId}/report.csv`,
        `/api/files/${fileId}/preview.jpg`,
      ];
      for (const route of routes) {
        const res = await stranger.client.get(route);
        expect(res.status, route).toBe(404);
        expect(res.text).not.toContain('private.png');
        const missing = await stranger.client.get(route.replace(String(fileId), '987654321'));
        expect(missing.status).toBe(404);
        expect(missing.text).toBe(res.text); // the same answer as for no such file
        expect((await t.server.client().get(route)).status).toBe(401);
      }
      const list = (
        await stranger.client.post('/api/get-uploaded-files-list/', { email_address: owner.email })
      ).json<string[][]>();
      expect(list.map((r) => r[0])).not.toContain('private.png');
      expect((await admin.client.get(`/api/files/${fileId}`)).status).toBe(200);
      expect((await admin.client.get(`/api/files/${fileId}/media`)).text).toBe('png-bytes');
      expect((await owner.client.get(`/api/files/${fileId}/media`)).status).toBe(200);
      expect((await stranger.client.get('/api/files/abc')).status).toBe(404);
    },
  );
});

/**
 * The files list and the admin search have the database write their JSON (record-json.ts). On
 * SQLite and PostgreSQL alike, what it writes must equal fileRecord / searchRecord over the same
 * rows in the same order: awkward names, deleted media, every status, ties in the sort key, and
 * a timestamp not in the server's own form (which takes the JavaScript path). All three are
 * generated from file-record.ts; both databases store only the data fields, never a URL.
 */
import { describe, expect, it } from 'vitest';
import type { FileRow } from '../../server/files/file-row.ts';
import { fileRecord, searchRecord } from '../../server/files/file-record.ts';
import { recordsJson } from '../../server/files/file-lists-repository.ts';
import { PG_STORED, STORED } from '../../server/files/file-record.ts';
import { typed } from '../../server/db.ts';
import { createFile, signedInUser } from '../support/factories/index.ts';
import { DB_KINDS, dbAvailable, useTestServer } from '../support/server.ts';

const LIST_ORDER = 'files.created_at desc, files.id desc';

/** What the admin search must answer for `rows`: newest status time first, then highest id. */
function searchRecords(rows: FileRow[], ownerEmail: string) {
  return [...rows]
    .sort((a, b) =>
      a.status_time === b.status_time ? b.id - a.id : a.status_time < b.status_time ? 1 : -1,
    )
    .map((r) => searchRecord({ ...r, owner_email: ownerEmail }));
}

describe.each(DB_KINDS)('records built by %s', (kind) => {
  const t = useTestServer(kind);

  async function expected(userId: number) {
    const rows = await typed<FileRow[]>(
      t.server.app
        .db('files')
        .where('user_id', userId)
        .orderBy([
          { column: 'created_at', order: 'desc' },
          { column: 'id', order: 'desc' },
        ]),
    );
    return rows;
  }

  it.skipIf(!dbAvailable(kind))('equal the JavaScript records, in the same order', async () => {
    const owner = await signedInUser(t.server);
    const names = [
      'plain.png',
      'quote " and \\ backslash.mp4',
      'tab\tnew\nline.avi',
      'ünïcödé 蜂 🐝.jpg',
      "apostrophe's <b>html</b>.png",
    ];
    const statuses = ['PROCESSED', 'FAILED', 'QUEUED', 'PROCESSING', 'UPLOADED'] as const;
    for (const [i, name] of names.entries()) {
      await createFile(t.server, owner.id, {
        original_name: name,
        status: statuses[i],
        location: i % 2 ? 'Warehouse 4' : 'Apiary "North"',
        // Two files share a creation time: the id breaks the tie, newest first.
        created_at: `2025-05-0${Math.min(i + 1, 4)}T08:00:00.000Z`,
        status_time: `2025-05-0${i + 1}T09:30:0${i}.${i}00Z`,
        media_deleted_at: i === 1 ? '2025-05-03T00:00:00.000Z' : null,
      });
    }
    const rows = await expected(owner.id);
    const json = await recordsJson(
      t.server.app.db,
      t.server.app.db('files').where('files.user_id', owner.id),
      { withOwner: false, orderBy: LIST_ORDER },
    );
    expect(json).not.toBeNull();
    expect(JSON.parse(json!)).toEqual(rows.map((r) => fileRecord(r)));
    // The stored parts hold data only; the URLs are composed from the id when answering.
    const layouts = kind === 'sqlite' ? STORED : PG_STORED;
    const columns = [layouts.list, layouts.search].flatMap((l) => l.parts.map((p) => p.column));
    const stored = await typed<Array<Record<string, string | null>>>(
      t.server.app.db('files').where('user_id', owner.id).select(columns),
    );
    expect(stored).toHaveLength(names.length);
    for (const parts of stored) {
      expect(Object.keys(parts)).toHaveLength(4);
      for (const part of Object.values(parts)) {
        expect(typeof part).toBe('string');
        expect(part).not.toContain('/api/');
      }
    }
    // And over HTTP, as the console receives it.
    const res = await owner.client.post('/api/get-uploaded-files-list/', {});
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.json()).toEqual(rows.map((r) => fileRecord(r)));

    const admin = await signedInUser(t.server, { role: 'ADMIN' });
    const found = await admin.client.post('/api/search-results-files', {
      start_date: '2025-05-01',
      end_date: '2025-05-06',
      file_description: '',
      location: '',
    });
    expect(found.status).toBe(200);
    expect(found.json()).toEqual(searchRecords(rows, owner.email));
  });

  it.skipIf(!dbAvailable(kind))(
    'keep the sort order over hundreds of rows inserted out of order',
    async () => {
      const owner = await signedInUser(t.server);
      // A fixed shuffle of 400 times over 40 days, a quarter of them repeated (ties).
      let seed = 7;
      const next = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
      const rows = Array.from({ length: 400 }, (_, i) => {
        const t0 = Date.UTC(2025, 3, 1) + Math.floor(next() * 40 * 86_400_000);
        const at = new Date(i % 4 === 0 ? Date.UTC(2025, 3, 10) : t0).toISOString();
        return {
          user_id: owner.id,
          original_name: `clip-${i}.mp4`,
          stored_name: `order-${kind}-${owner.id}-${i}.mp4`,
          kind: 'video',
          format: 'mp4',
          size_bytes: 1,
          description: 'order check',
          location: 'Apiary North',
          status: 'PROCESSED',
          status_time: at,
          created_at: at,
        };
      });
      for (let i = 0; i < rows.length; i += 100) {
        await t.server.app.db('files').insert(rows.slice(i, i + 100));
      }
      const expectedRows = await expected(owner.id);
      expect(expectedRows).toHaveLength(400);
      const list = await owner.client.post('/api/get-uploaded-files-list/', {});
      expect(list.json()).toEqual(expectedRows.map((r) => fileRecord(r)));

      const admin = await signedInUser(t.server, { role: 'ADMIN' });
      const found = await admin.client.post('/api/search-results-files', {
        start_date: '2025-04-01',
        end_date: '2025-05-12',
        file_description: 'order',
        location: '',
      });
      expect(found.json()).toEqual(searchRecords(expectedRows, owner.email));
    },
  );

  it.skipIf(!dbAvailable(kind))(
    'follow every change to a file and to its owner (the databases store the parts)',
    async () => {
      const owner = await signedInUser(t.server);
      const admin = await signedInUser(t.server, { role: 'ADMIN' });
      const id = await createFile(t.server, owner.id, {
        original_name: 'before.mp4',
        status: 'QUEUED',
        location: 'Apiary North',
        status_time: '2025-06-01T08:00:00.000Z',
      });
      const db = t.server.app.db;
      const check = async (email: string) => {
        const rows = await expected(owner.id);
        const list = await owner.client.post('/api/get-uploaded-files-list/', {});
        expect(list.json()).toEqual(rows.map((r) => fileRecord(r)));
        const found = await admin.client.post('/api/search-results-files', {
          start_date: '2025-06-01',
          end_date: '2025-06-10',
          file_description: '',
          location: '',
        });
        expect(found.json()).toEqual(searchRecords(rows, email));
      };
      await check(owner.email);
      // What the worker and the retention sweep write, then a user's edit, one step at a time.
      const changes: Array<Partial<FileRow>> = [
        { status: 'PROCESSING' },
        { status: 'PROCESSED', status_time: '2025-06-02T09:15:30.250Z' },
        { media_deleted_at: '2025-06-03T09:15:30.250Z' },
        { location: 'Warehouse 4', original_name: 'after.mp4' },
      ];
      for (const change of changes) {
        await db('files').where({ id }).update(change);
        await check(owner.email);
      }
      const email = `renamed-${owner.email}`;
      await db('users').where({ id: owner.id }).update({ email });
      await check(email);
    },
  );

  it.skipIf(!dbAvailable(kind))('answer [] for a user with no files', async () => {
    const owner = await signedInUser(t.server);
    const res = await owner.client.post('/api/get-uploaded-files-list/', {});
    expect(res.status).toBe(200);
    expect(res.json()).toEqual([]);
    expect(
      await recordsJson(t.server.app.db, t.server.app.db('files').where('files.user_id', -1), {
        withOwner: false,
        orderBy: LIST_ORDER,
      }),
    ).toBe('[]');
  });

  it.skipIf(!dbAvailable(kind))(
    'leave a timestamp not written by the server to the JavaScript path',
    async () => {
      const owner = await signedInUser(t.server);
      await createFile(t.server, owner.id, { status_time: '2025-05-01T09:30:00Z' });
      expect(
        await recordsJson(
          t.server.app.db,
          t.server.app.db('files').where('files.user_id', owner.id),
          { withOwner: false, orderBy: LIST_ORDER },
        ),
      ).toBeNull();
      const res = await owner.client.post('/api/get-uploaded-files-list/', {});
      expect(res.json<string[][]>()[0]![5]).toBe('2025-05-01T09:30:00.000+00:00');
    },
  );
});

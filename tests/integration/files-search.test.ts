/**
 * Admin file search over real HTTP on SQLite and PostgreSQL: end-exclusive date range, every
 * keyword in the description, location substring, validation, admin-only, and speed with 10,000
 * files.
 */
import { describe, expect, it } from 'vitest';
import { createFile, signedInUser } from '../support/factories/index.ts';
import { DB_KINDS, dbAvailable, useTestServer } from '../support/server.ts';

const search = (body: Record<string, string>) => ({
  start_date: '2025-03-01',
  end_date: '2025-03-04',
  file_description: '',
  location: '',
  ...body,
});

describe.each(DB_KINDS)('file search on %s', (kind) => {
  const t = useTestServer(kind);

  it.skipIf(!dbAvailable(kind))(
    'filters by end-exclusive dates, keywords and location',
    async () => {
      const admin = await signedInUser(t.server, { role: 'ADMIN' });
      const owner = await signedInUser(t.server);
      const at = (day: string, name: string, description: string, location = 'Apiary North') =>
        createFile(t.server, owner.id, {
          original_name: name,
          description,
          location,
          status_time: `${day}T12:00:00.000Z`,
          created_at: `${day}T11:00:00.000Z`,
        });
      await at('2025-02-28', 'before.png', 'Brood frame check');
      const first = await at(
        '2025-03-01',
        'first.png',
        'Brood frame check, pollen heavy',
        'North Field 2',
      );
      await at('2025-03-03', 'last.png', 'Entrance FRAME pollen', 'Warehouse 4');
      await at('2025-03-04', 'after.png', 'Brood frame pollen');
      await createFile(t.server, owner.id, {
        original_name: 'edge.png',
        description: 'edge',
        status_time: '2025-03-04T00:00:00.000Z',
      });

      const names = async (body: Record<string, string>) => {
        const res = await admin.client.post('/api/search-results-files', search(body));
        expect(res.status).toBe(200);
        return res.json<string[][]>().map((r) => r[0]);
      };
      expect(await names({})).toEqual(['last.png', 'first.png']);
      expect(await names({ file_description: 'frame  POLLEN' })).toEqual(['last.png', 'first.png']);
      expect(await names({ file_description: 'brood pollen' })).toEqual(['first.png']);
      expect(await names({ file_description: '100%' })).toEqual([]);
      expect(await names({ location: 'north' })).toEqual(['first.png']);
      expect(await names({ location: 'warehouse', file_description: 'entrance' })).toEqual([
        'last.png',
      ]);
      // Files of several matching locations come back in one status-time order.
      expect(await names({ location: 'o' })).toEqual(['last.png', 'first.png']);
      expect(await names({ location: '%' })).toEqual([]);

      const res = await admin.client.post(
        '/api/search-results-files',
        search({ end_date: '2025-03-02' }),
      );
      const rows = res.json<string[][]>();
      expect(rows).toEqual([
        [
          'first.png',
          'PROCESSED',
          `/api/files/${first}/media`,
          `/api/files/${first}/report.csv`,
          'North Field 2',
          '2025-03-01T12:00:00.000+00:00',
          owner.email,
        ],
      ]);
      // A location changed after the upload is searched by its new name only.
      await t.server.app.db('files').where({ id: first }).update({ location: 'Orchard Row 3' });
      expect(await names({ location: 'orchard' })).toEqual(['first.png']);
      expect(await names({ location: 'north field' })).toEqual([]);
    },
  );

  it.skipIf(!dbAvailable(kind))(
    'matches keywords and location whatever their case, with %, _ and \\ taken literally',
    async () => {
      const admin = await signedInUser(t.server, { role: 'ADMIN' });
      const owner = await signedInUser(t.server);
      const at = (name: string, description: string, location = 'Apiary North') =>
        createFile(t.server, owner.id, {
          original_name: name,
          description,
          location,
          status_time: '2025-03-02T12:00:00.000Z',
        });
      // Each literal file has a decoy that a wildcard (or a dropped backslash) would also match.
      await at('literal.png', 'Queen_Cell 100% capped; gate\\door shut', 'Barn Row_3');
      await at('decoy.png', 'queenXcell 1000 capped; gatedoor shut', 'Barn RowX3');
      await at('accented.png', 'ölprobe taken', 'Église Garden');
      await at('capital-accent.png', 'Ölprobe taken', 'Hill');

      const names = async (body: Record<string, string>) => {
        const res = await admin.client.post('/api/search-results-files', search(body));
        expect(res.status).toBe(200);
        return res.json<string[][]>().map((r) => r[0]);
      };
      expect(await names({ file_description: 'QUEEN_CELL' })).toEqual(['literal.png']);
      expect(await names({ file_description: '100%' })).toEqual(['literal.png']);
      expect(await names({ file_description: '0%' })).toEqual(['literal.png']);
      expect(await names({ file_description: 'Gate\\Door' })).toEqual(['literal.png']);
      expect(await names({ file_description: 'CAPPED' })).toEqual(['decoy.png', 'literal.png']);
      expect(await names({ location: 'ROW_3' })).toEqual(['literal.png']);
      expect(await names({ location: 'barn row' })).toEqual(['decoy.png', 'literal.png']);
      // A keyword's own non-ASCII capitals are folded on both databases; the stored text's are
      // folded by PostgreSQL only (SQLite's LIKE ignores ASCII case alone).
      expect(await names({ location: 'ÉGLISE' })).toEqual(
        kind === 'postgres' ? ['accented.png'] : [],
      );
      expect(await names({ file_description: 'ÖLPROBE' })).toEqual(
        kind === 'postgres' ? ['capital-accent.png', 'accented.png'] : ['accented.png'],
      );
    },
  );

  it.skipIf(!dbAvailable(kind))('validates dates and is for administrators only', async () => {
    const admin = await signedInUser(t.server, { role: 'ADMIN' });
    const user = await signedInUser(t.server);
    expect((await user.client.post('/api/search-results-files', search({}))).status).toBe(403);
    expect((await t.server.client().post('/api/search-results-files', search({}))).status).toBe(
      401,
    );
    const bads: Array<Record<string, string>> = [
      { start_date: '' },
      { end_date: '03/04/2025' },
      { start_date: '2025-02-30' },
      { start_date: '2025-03-05', end_date: '2025-03-04' },
    ];
    for (const bad of bads) {
      const res = await admin.client.post('/api/search-results-files', search(bad));
      expect(res.status, JSON.stringify(bad)).toBe(400);
    }
    const res = await admin.client.post(
      '/api/search-results-files',
      search({ start_date: '2025-03-05', end_date: '2025-03-04' }),
    );
    expect(res.json<{ message: string }>().message).toBe(
      'The start date needs to be before the end date.',
    );
  });

  it.skipIf(!dbAvailable(kind))('stays fast with 10,000 files', async () => {
    const admin = await signedInUser(t.server, { role: 'ADMIN' });
    const owner = await signedInUser(t.server);
    const rows = Array.from({ length: 10_000 }, (_, i) => {
      const day = `2024-${String((i % 12) + 1).padStart(2, '0')}-${String((i % 28) + 1).padStart(2, '0')}`;
      return {
        user_id: owner.id,
        original_name: `bulk-${i}.png`,
        stored_name: `bulk${i}-${owner.id}`,
        kind: 'image',
        format: 'png',
        size_bytes: 100,
        description: i % 10 === 0 ? 'varroa check entrance' : 'routine entrance',
        location: i % 3 === 0 ? 'Hill Apiary' : 'Valley',
        status: 'PROCESSED',
        status_time: `${day}T08:00:00.000Z`,
        created_at: `${day}T08:00:00.000Z`,
      };
    });
    await t.server.app.db.batchInsert('files', rows, 500);
    const started = performance.now();
    const res = await admin.client.post(
      '/api/search-results-files',
      search({
        start_date: '2024-01-01',
        end_date: '2025-01-01',
        file_description: 'varroa',
        location: 'hill',
      }),
    );
    const ms = performance.now() - started;
    expect(res.status).toBe(200);
    expect(res.json<unknown[]>()).toHaveLength(334);
    const all = await admin.client.post(
      '/api/search-results-files',
      search({ start_date: '2024-01-01', end_date: '2025-01-01' }),
    );
    expect(all.json<unknown[]>()).toHaveLength(10_000);
    expect(ms).toBeLessThan(2000);
  });
});

// The admin search's indexes on PostgreSQL (migration 0023, which replaced 0022's and moved 0007's
// trigram indexes onto the lowercase copies): the search's date range, filters, owner and stored
// record parts are read from the covering index alone, a keyword's pattern is served by a
// trigram index, and SQLite gets no such indexes.
import type { Knex } from 'knex';
import { describe, expect, it } from 'vitest';
import { PG_STORED } from '../../server/files/file-record.ts';
import { containsCondition, searchQuery } from '../../server/files/file-lists-repository.ts';
import { createFile, signedInUser } from '../support/factories/index.ts';
import { DB_KINDS, dbAvailable, useTestServer } from '../support/server.ts';

const INDEX = 'files_search_lowercase_pg_index';

/** PostgreSQL's plan for `sql`, its lines, with the named planner methods (enable_*) off. */
async function planLines(
  db: Knex,
  off: Array<
    'seqscan' | 'bitmapscan' | 'indexscan' | 'indexonlyscan' | 'sort' | 'incremental_sort'
  >,
  sql: string,
  bindings: readonly string[],
): Promise<string[]> {
  return db.transaction(async (trx) => {
    for (const method of off) await trx.raw(`SET LOCAL enable_${method} = off`);
    const result = await trx.raw<{ rows: Array<{ 'QUERY PLAN': string }> }>(
      `EXPLAIN ${sql}`,
      bindings,
    );
    return result.rows.map((r) => r['QUERY PLAN']);
  });
}

describe.each(DB_KINDS)('search index on %s', (kind) => {
  describe.skipIf(!dbAvailable(kind))('', () => {
    const t = useTestServer(kind);

    it('the search is served by an index-only scan (PostgreSQL) / no such index (SQLite)', async () => {
      const db = t.server.app.db;
      if (kind === 'sqlite') {
        const found = await db('sqlite_master').where({
          type: 'index',
          name: INDEX,
        });
        expect(found).toHaveLength(0);
        return;
      }
      const { id } = await signedInUser(t.server);
      for (let i = 0; i < 50; i += 1)
        await createFile(t.server, id, { description: `pollen at hive ${i}` });
      await db.raw('VACUUM ANALYZE files');
      // Tiny tables are cheaper to scan whole, or to sort after any index (an incremental sort
      // after the status_time index costs about the same, so the planner's pick between the two
      // depends on the statistics of the day); the question is whether the index can serve.
      const plan = (
        await planLines(
          db,
          ['seqscan', 'bitmapscan', 'sort', 'incremental_sort'],
          `SELECT id, user_id, ${PG_STORED.search.answerColumns.join(', ')}
           FROM files
           WHERE status_time >= ? AND status_time < ? AND description_lower LIKE lower(?) AND location_lower LIKE lower(?)
           ORDER BY status_time DESC, id DESC`,
          ['2000-01-01T00:00:00.000Z', '2100-01-01T00:00:00.000Z', '%POLLEN%', '%north%'],
        )
      ).join('\n');
      expect(plan).toContain(`Index Only Scan Backward using ${INDEX}`);
    });

    it.skipIf(kind === 'sqlite')(
      'a keyword is served by the trigram index on the lowercase copy',
      async () => {
        const db = t.server.app.db;
        const trigrams = await db('pg_extension').where({ extname: 'pg_trgm' });
        const indexes = await db('pg_indexes')
          .where({ schemaname: db.raw('current_schema()'), tablename: 'files' })
          .andWhere('indexname', 'like', '%trgm%')
          .pluck<string[]>('indexname');
        if (trigrams.length === 0) {
          expect(indexes).toEqual([]);
          return;
        }
        expect(indexes.sort()).toEqual([
          'files_description_lower_trgm_index',
          'files_location_lower_trgm_index',
        ]);
        const { id } = await signedInUser(t.server);
        for (let i = 0; i < 50; i += 1)
          await createFile(t.server, id, { description: `Pollen at hive ${i}` });
        await db.raw('VACUUM ANALYZE files');
        // A bound pattern, as the search sends it: lower() is folded before planning.
        const plan = (
          await planLines(
            db,
            ['seqscan', 'indexscan', 'indexonlyscan'],
            "SELECT id FROM files WHERE description_lower LIKE lower(?) ESCAPE '\\'",
            ['%POLLEN%'],
          )
        ).join('\n');
        expect(plan).toContain('Bitmap Index Scan on files_description_lower_trgm_index');
      },
    );

    it.skipIf(kind === 'sqlite')(
      'a word too short for a trigram is filtered, never looked up in a trigram index',
      async () => {
        const db = t.server.app.db;
        if ((await db('pg_extension').where({ extname: 'pg_trgm' })).length === 0) return;
        const { id } = await signedInUser(t.server);
        for (let i = 0; i < 60; i += 1) {
          await createFile(t.server, id, {
            original_name: `f${i}.png`,
            description: `Swarmwatch ${i % 6} at the entrance`,
            location: i % 2 === 0 ? 'Orchard Row' : 'North Field',
          });
        }
        await db.raw('VACUUM ANALYZE files');
        // The index a condition can use: with every other access made dear, PostgreSQL looks a
        // condition up in a trigram index wherever one can serve it.
        const indexConditions = async (text: string) => {
          const [condition, bindings] = containsCondition(true, 'description', text);
          const plan = await planLines(
            db,
            ['seqscan', 'indexscan', 'indexonlyscan'],
            `SELECT id FROM files WHERE ${condition}`,
            bindings,
          );
          return plan.filter((line) => line.includes('Index Cond')).join('\n');
        };
        expect(await indexConditions('Swarmwatch')).toContain('%swarmwatch%');
        expect(await indexConditions('3')).toBe('');

        const names = (keywords: string[], location: string) =>
          searchQuery(db, { start: '2000-01-01', end: '2100-01-01', keywords, location })
            .orderBy('files.id')
            .pluck<string[]>('files.original_name');
        // i % 6 === 3 is odd, and odd files are at North Field.
        expect(await names(['swarmwatch', '3'], 'ORCHARD')).toEqual([]);
        expect(await names(['SWARMWATCH', '3'], 'th')).toEqual(
          ['f3.png', 'f9.png', 'f15.png', 'f21.png', 'f27.png', 'f33.png'].concat([
            'f39.png',
            'f45.png',
            'f51.png',
            'f57.png',
          ]),
        );
      },
    );
  });
});

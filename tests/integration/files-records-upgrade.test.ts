/**
 * Upgrading a SQLite database that already holds files: migrations 0008 and 0009 must give every
 * existing file its stored list and search records and its location name, and 0021 must replace
 * those records by parts without URLs, exactly as the triggers give new files (fileRecord /
 * searchRecord, generated from file-record.ts, stay the definition). 0021's down() must give the
 * files 0008's records back. On PostgreSQL, 0022 must give existing files their parts (generated
 * columns), and its down() must remove them and leave the answers to json-free paths; 0023 must
 * give them lowercase copies of their description and location, and its down() must give 0022's
 * and 0007's indexes back.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Knex } from 'knex';
import { afterAll, describe, expect, it } from 'vitest';
import { createDb, typed } from '../../server/db.ts';
import { migrationSource } from '../../migrations/index.ts';
import type { FileRow } from '../../server/files/file-row.ts';
import {
  fileRecord,
  PG_JSON_QUOTE,
  PG_STORED,
  searchRecord,
} from '../../server/files/file-record.ts';
import { recordsJson } from '../../server/files/file-lists-repository.ts';
import { dropSchema, PG_URL, postgresAnswers } from '../support/postgres.ts';

const BEFORE_RECORDS = '20261123_0007_files_search_trigram_indexes';
const RECORD_PARTS = '20261129_0021_files_record_parts';
const PG_RECORD_PARTS = '20261129_0022_files_record_parts_pg';
const PG_LOWERCASE = '20261129_0023_files_search_lowercase_pg';
const PG_AVAILABLE = await postgresAnswers();

/** Migrates up to `last` (0023, the record migrations' end; later ones are not this test's). */
async function migrateTo(db: Knex, last = PG_LOWERCASE): Promise<string[]> {
  const applied: string[] = [];
  while (applied.at(-1) !== last) {
    const [, names] = (await db.migrate.up({ migrationSource })) as [number, string[]];
    if (names.length === 0) throw new Error(`${last} is not among the migrations`);
    applied.push(...names);
  }
  return applied;
}

/** A processed video's row as a database before the record migrations holds it. */
function legacyFile(userId: number, name: string, location: string, statusTime: string) {
  return {
    user_id: userId,
    original_name: name,
    stored_name: `${name}-stored`,
    kind: 'video',
    format: 'mp4',
    size_bytes: 1,
    description: 'filmed before the upgrade',
    location,
    status: 'PROCESSED',
    status_time: statusTime,
    created_at: statusTime,
  };
}
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hs-upgrade-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('upgrading a SQLite database with files', () => {
  it('gives existing files their records and location names', async () => {
    const db = createDb({ sqliteFile: path.join(dir, 'hivesight.sqlite') });
    try {
      const all = await migrationSource.getMigrations([]);
      const upTo = all.findIndex(([name]) => name === BEFORE_RECORDS);
      expect(upTo).toBeGreaterThan(0);
      for (let i = 0; i <= upTo; i += 1) await db.migrate.up({ migrationSource });

      await db('users').insert({
        email: 'keeper@example.com',
        name: 'Keeper',
        password_hash: 'x',
        role: 'USER',
        created_at: '2025-04-01T00:00:00.000Z',
      });
      const user = await db('users').first<{ id: number } | undefined>('id');
      const userId = user!.id;
      const file = (name: string, location: string, statusTime: string) =>
        legacyFile(userId, name, location, statusTime);
      await db('files').insert([
        file('morning.mp4', 'Apiary North', '2025-05-01T09:30:00.000Z'),
        file('evening "late".mp4', 'Warehouse 4', '2025-05-02T19:30:00.000Z'),
        // Not the server's own timestamp form: no record, so answers take the JavaScript path.
        file('imported.mp4', 'Apiary North', '2025-05-03T08:00:00Z'),
      ]);

      const applied = await migrateTo(db);
      const order = all.map(([name]) => name);
      expect(applied).toEqual(order.slice(upTo + 1, order.indexOf(PG_LOWERCASE) + 1));
      expect(applied).toContain(RECORD_PARTS);

      type Row = FileRow & { owner_email: string };
      const rows = await typed<Row[]>(
        db('files')
          .join('users', 'users.id', 'files.user_id')
          .select('files.*', 'users.email as owner_email'),
      );
      const canonical = (q: Knex.QueryBuilder) => q.whereNot('files.original_name', 'imported.mp4');
      const byId = (a: FileRow, b: FileRow) => a.id - b.id;
      const kept = rows.filter((r) => r.original_name !== 'imported.mp4').sort(byId);
      const answer = async (withOwner: boolean, query = canonical(db('files'))) =>
        recordsJson(db, query, { withOwner, orderBy: 'files.id' });
      const partsNow = () =>
        typed<Array<Record<string, string>>>(
          db('files').select(
            'list_record_0',
            'list_record_1',
            'search_record_0',
            'search_record_1',
          ),
        );

      // 0021: the records come from the stored parts and the URLs composed when answering.
      expect(JSON.parse((await answer(false))!)).toEqual(kept.map((r) => fileRecord(r)));
      expect(JSON.parse((await answer(true))!)).toEqual(kept.map((r) => searchRecord(r)));
      for (const parts of await partsNow()) {
        expect(Object.values(parts).join(' ')).not.toContain('/api/');
      }
      // Not the server's own timestamp form: no parts, so answers take the JavaScript path.
      const imported = db('files').where('files.original_name', 'imported.mp4');
      expect(await answer(false, imported.clone())).toBeNull();
      expect(await answer(true, imported.clone())).toBeNull();
      const names = await db('file_locations').orderBy('location').pluck('location');
      expect(names).toEqual(['Apiary North', 'Warehouse 4']);

      // 0021 down (after 0023's and 0022's, no-ops on SQLite): 0008's whole records again, for
      // old and new files alike.
      for (let i = 0; i < 3; i += 1) await db.migrate.down({ migrationSource });
      expect(await db.schema.hasColumn('files', 'list_record_0')).toBe(false);
      const old = await typed<Array<Row & { list_record: string; search_record: string }>>(
        db('files')
          .join('users', 'users.id', 'files.user_id')
          .orderBy('files.id')
          .select('files.*', 'users.email as owner_email'),
      );
      for (const row of old) {
        if (row.original_name === 'imported.mp4') {
          expect(row.list_record).toBeNull();
          expect(row.search_record).toBeNull();
          continue;
        }
        expect(JSON.parse(row.list_record)).toEqual(fileRecord(row));
        expect(JSON.parse(row.search_record)).toEqual(searchRecord(row));
      }
      // 0009's triggers survived both ways (0021 drops columns without copying the table).
      await db('files').insert(file('late.mp4', 'Orchard', '2025-05-04T08:00:00.000Z'));
      expect(await db('file_locations').where({ location: 'Orchard' }).first()).toBeTruthy();
      // And up again, over a database 0008's triggers kept.
      expect(await migrateTo(db)).toEqual([RECORD_PARTS, PG_RECORD_PARTS, PG_LOWERCASE]);
      const again = await typed<Row[]>(
        db('files')
          .join('users', 'users.id', 'files.user_id')
          .select('files.*', 'users.email as owner_email'),
      );
      const keptAgain = again.filter((r) => r.original_name !== 'imported.mp4').sort(byId);
      expect(keptAgain).toHaveLength(3);
      expect(JSON.parse((await answer(true))!)).toEqual(keptAgain.map((r) => searchRecord(r)));
      await db('files').where({ original_name: 'late.mp4' }).update({ location: 'Meadow' });
      expect(await db('file_locations').where({ location: 'Meadow' }).first()).toBeTruthy();
    } finally {
      await db.destroy();
    }
  });
});

describe('upgrading a PostgreSQL database with files', () => {
  it.skipIf(!PG_AVAILABLE)(
    'gives existing files their record parts, and takes them back',
    async () => {
      const schema = `hs_upgrade_${crypto.randomBytes(6).toString('hex')}`;
      const db = createDb({ databaseUrl: PG_URL, searchPath: schema, poolMax: 2 });
      try {
        const all = await migrationSource.getMigrations([]);
        const upTo = all.findIndex(([name]) => name === PG_RECORD_PARTS) - 1;
        expect(upTo).toBeGreaterThan(0);
        for (let i = 0; i <= upTo; i += 1) await db.migrate.up({ migrationSource });

        const [user] = await db('users')
          .insert({
            email: 'keeper "q"@example.com',
            name: 'Keeper',
            password_hash: 'x',
            role: 'USER',
            created_at: '2025-04-01T00:00:00.000Z',
          })
          .returning<Array<{ id: number }>>('id');
        const file = (name: string, location: string, statusTime: string) => ({
          ...legacyFile(user!.id, name, location, statusTime),
          media_deleted_at: name.startsWith('evening') ? '2025-05-03T00:00:00.000Z' : null,
        });
        await db('files').insert([
          file('morning.mp4', 'Apiary North', '2025-05-01T09:30:00.000Z'),
          file('evening "late"\t\\ 蜂.mp4', 'Warehouse\n4', '2025-05-02T19:30:00.000Z'),
          // Not the server's own timestamp form: no parts, so answers take the JavaScript path.
          file('imported.mp4', 'Apiary North', '2025-05-03T08:00:00Z'),
        ]);
        const canonical = () => db('files').whereNot('files.original_name', 'imported.mp4');
        const answer = async (withOwner: boolean, query = canonical()) =>
          recordsJson(db, query, { withOwner, orderBy: 'files.id' });

        expect(await migrateTo(db)).toEqual([PG_RECORD_PARTS, PG_LOWERCASE]);
        type Row = FileRow & { owner_email: string };
        const rows = await typed<Row[]>(
          db('files')
            .join('users', 'users.id', 'files.user_id')
            .orderBy('files.id')
            .select('files.*', 'users.email as owner_email'),
        );
        const kept = rows.filter((r) => r.original_name !== 'imported.mp4');
        expect(kept).toHaveLength(2);
        // The parts were computed for the rows already there, and hold no URL.
        const columns = [PG_STORED.list, PG_STORED.search].flatMap((l) =>
          l.parts.map((p) => p.column),
        );
        const parts = await typed<Array<Record<string, string | null>>>(
          canonical().orderBy('id').select(columns),
        );
        for (const row of parts) {
          for (const part of Object.values(row)) {
            expect(typeof part).toBe('string');
            expect(part).not.toContain('/api/');
          }
        }
        expect(JSON.parse((await answer(false))!)).toEqual(kept.map((r) => fileRecord(r)));
        expect(JSON.parse((await answer(true))!)).toEqual(kept.map((r) => searchRecord(r)));
        const imported = db('files').where('files.original_name', 'imported.mp4');
        expect(await answer(false, imported.clone())).toBeNull();
        expect(await answer(true, imported.clone())).toBeNull();
        // Generated columns follow a change to what they show, with no trigger.
        await db('files').where('id', kept[0]!.id).update({ location: 'Orchard "East"' });
        const moved = { ...kept[0]!, location: 'Orchard "East"' };
        expect(JSON.parse((await answer(true))!)).toEqual(
          [moved, kept[1]!].map((r) => searchRecord(r)),
        );

        // 0023: lowercase copies for the rows already there, kept current with no trigger.
        const copies = await db('files')
          .orderBy('id')
          .select('description_lower', 'location_lower');
        expect(copies).toEqual([
          { description_lower: 'filmed before the upgrade', location_lower: 'orchard "east"' },
          { description_lower: 'filmed before the upgrade', location_lower: 'warehouse\n4' },
          { description_lower: 'filmed before the upgrade', location_lower: 'apiary north' },
        ]);
        const filesIndexes = () =>
          db('pg_indexes')
            .where({ schemaname: schema, tablename: 'files' })
            .pluck<string[]>('indexname');
        expect(await filesIndexes()).toContain('files_search_lowercase_pg_index');
        // 0023 down: no copies, 0022's covering index and 0007's trigram indexes back.
        await db.migrate.down({ migrationSource });
        for (const column of ['description_lower', 'location_lower'])
          expect(await db.schema.hasColumn('files', column)).toBe(false);
        expect(await filesIndexes()).toEqual(
          expect.arrayContaining([
            'files_search_record_parts_pg_index',
            'files_description_trgm_index',
            'files_location_trgm_index',
          ]),
        );
        // 0022 down: no parts, no quoting function, 0012's covering index back.
        await db.migrate.down({ migrationSource });
        for (const column of columns)
          expect(await db.schema.hasColumn('files', column)).toBe(false);
        const functions = await db.raw<{ rows: unknown[] }>(
          `SELECT 1 FROM pg_proc JOIN pg_namespace ON pg_namespace.oid = pg_proc.pronamespace
          WHERE proname = ? AND nspname = ?`,
          [PG_JSON_QUOTE, schema],
        );
        expect(functions.rows).toHaveLength(0);
        const indexes = await db('pg_indexes')
          .where({ schemaname: schema, tablename: 'files' })
          .pluck<string[]>('indexname');
        expect(indexes).toContain('files_search_covering_pg_index');
        // And up again over the same rows.
        expect(await migrateTo(db)).toEqual([PG_RECORD_PARTS, PG_LOWERCASE]);
        expect(JSON.parse((await answer(true))!)).toEqual(
          [moved, kept[1]!].map((r) => searchRecord(r)),
        );
      } finally {
        await db.destroy();
        await dropSchema(schema);
      }
    },
  );
});

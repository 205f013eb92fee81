/**
 * Upgrading a SQLite database that already holds files: migrations 0008 and 0009 must give every
 * existing file its stored list and search records and its location name, and 0021 must replace
 * those records by parts without URLs, exactly as the triggers give new files (fileRecord /
 * searchRecord, generated from file-record.ts, stay the definition). 0021's down() must give the
 * files 0008's records back.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Knex } from 'knex';
import { afterAll, describe, expect, it } from 'vitest';
import { createDb, migrateLatest } from '../../server/db.ts';
import { migrationSource } from '../../migrations/index.ts';
import type { FileRow } from '../../server/files/records.ts';
import { fileRecord, searchRecord } from '../../server/files/file-record.ts';
import { typed } from '../../server/files/access.ts';
import { recordsJson } from '../../server/files/record-json.ts';

const BEFORE_RECORDS = '20261123_0007_files_search_trigram_indexes';
const RECORD_PARTS = '20261129_0021_files_record_parts';
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
      const file = (name: string, location: string, statusTime: string) => ({
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
      });
      await db('files').insert([
        file('morning.mp4', 'Apiary North', '2025-05-01T09:30:00.000Z'),
        file('evening "late".mp4', 'Warehouse 4', '2025-05-02T19:30:00.000Z'),
        // Not the server's own timestamp form: no record, so answers take the JavaScript path.
        file('imported.mp4', 'Apiary North', '2025-05-03T08:00:00Z'),
      ]);

      const applied = await migrateLatest(db);
      expect(applied).toEqual(all.slice(upTo + 1).map(([name]) => name));
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

      // 0021 down: 0008's whole records again, for old and new files alike.
      await db.migrate.down({ migrationSource });
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
      expect(await migrateLatest(db)).toEqual([RECORD_PARTS]);
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

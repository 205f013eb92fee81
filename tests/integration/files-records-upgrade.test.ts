/**
 * Upgrading a SQLite database that already holds files: migrations 0008 and 0009 must give every
 * existing file its stored list and search records and its location name, exactly as the
 * triggers give new files (fileRecord / searchRecord stay the definition).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createDb, migrateLatest } from '../../server/db.ts';
import { migrationSource } from '../../migrations/index.ts';
import type { FileRow } from '../../server/files/records.ts';
import { fileRecord, searchRecord } from '../../server/files/records.ts';
import { typed } from '../../server/files/access.ts';

const BEFORE_RECORDS = '20261123_0007_files_search_trigram_indexes';
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

      const rows = await typed<Array<FileRow & { list_record: string; search_record: string }>>(
        db('files').orderBy('id'),
      );
      const canonical = rows.filter((r) => r.original_name !== 'imported.mp4');
      for (const row of canonical) {
        expect(JSON.parse(row.list_record)).toEqual(fileRecord(row));
        expect(JSON.parse(row.search_record)).toEqual(
          searchRecord({ ...row, owner_email: 'keeper@example.com' }),
        );
      }
      const imported = rows.find((r) => r.original_name === 'imported.mp4')!;
      expect(imported.list_record).toBeNull();
      expect(imported.search_record).toBeNull();
      const names = await db('file_locations').orderBy('location').pluck('location');
      expect(names).toEqual(['Apiary North', 'Warehouse 4']);
    } finally {
      await db.destroy();
    }
  });
});

/**
 * The migrations stand alone: an empty database migrated from 0001 to the head, and one seeded at
 * 0020 (files, a location with an entrance, a corrected frame) and then migrated to the head,
 * both end with the schema committed in `schema/`, on SQLite and on PostgreSQL. A migration that
 * imported app code would change that schema when the app changes; a changed snapshot in a diff
 * says that the schema changed, and a new migration must say why.
 *
 * After adding a migration: `npx vitest run tests/integration/migrations-schema.test.ts -u`,
 * then read the snapshot's diff.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Knex } from 'knex';
import { afterAll, describe, expect, it } from 'vitest';
import { createDb, migrateLatest } from '../../server/db.ts';
import { migrationSource } from '../../migrations/index.ts';
import { dropSchema, PG_URL, postgresAnswers } from '../support/postgres.ts';

const SEEDED_AT = '20261128_0020_corrected_frames_and_training_consent';
const PG_AVAILABLE = await postgresAnswers();
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hs-schema-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

async function migrateUpTo(db: Knex, name: string): Promise<void> {
  const all = await migrationSource.getMigrations([]);
  const upTo = all.findIndex(([n]) => n === name);
  expect(upTo).toBeGreaterThan(0);
  for (let i = 0; i <= upTo; i += 1) await db.migrate.up({ migrationSource });
}

/** Rows a database of 0020 holds: what a later migration must carry over. */
async function seedAt0020(db: Knex): Promise<void> {
  const [user] = await db('users')
    .insert({
      email: 'keeper@example.com',
      name: 'Keeper',
      password_hash: 'x',
      role: 'USER',
      created_at: '2026-11-28T08:00:00.000Z',
    })
    .returning<Array<{ id: number }>>('id');
  const userId = user!.id;
  await db('locations').insert({
    user_id: userId,
    name: 'Apiary North',
    entrance_json: JSON.stringify([
      [0.1, 0.8],
      [0.9, 0.8],
      [0.9, 0.95],
      [0.1, 0.95],
    ]),
  });
  const [file] = await db('files')
    .insert({
      user_id: userId,
      original_name: 'morning.mp4',
      stored_name: 'morning-stored.mp4',
      kind: 'video',
      format: 'mp4',
      size_bytes: 1000,
      description: 'before the upgrade',
      location: 'Apiary North',
      status: 'PROCESSED',
      status_time: '2026-11-28T09:30:00.000Z',
      created_at: '2026-11-28T09:29:00.000Z',
    })
    .returning<Array<{ id: number }>>('id');
  await db('corrected_frames').insert({
    file_id: file!.id,
    frame_index: 3,
    time_s: 0.6,
    still_name: 'still-3.png',
    width: 1920,
    height: 1080,
    labels_json: '[]',
    model_json: '[]',
    author_id: userId,
    created_at: '2026-11-28T10:00:00.000Z',
    updated_at: '2026-11-28T10:00:00.000Z',
  });
}

async function sqliteSchema(db: Knex): Promise<string> {
  const rows = await db.raw<Array<{ type: string; name: string; sql: string | null }>>(
    `SELECT type, name, sql FROM sqlite_master
      WHERE name NOT LIKE 'sqlite_%' AND name NOT LIKE 'knex_%' ORDER BY type, name`,
  );
  return rows.map((r) => `-- ${r.type} ${r.name}\n${r.sql ?? '(implicit)'};\n`).join('\n');
}

async function pgSchema(db: Knex, schema: string): Promise<string> {
  const q = async <T>(sql: string): Promise<T[]> =>
    (await db.raw<{ rows: T[] }>(sql, [schema])).rows;
  type Column = Record<string, string | null>;
  const columns = await q<Column>(
    `SELECT table_name, column_name, data_type, is_nullable, column_default, generation_expression
       FROM information_schema.columns
      WHERE table_schema = ? AND table_name NOT LIKE 'knex_%'
      ORDER BY table_name, column_name`,
  );
  const indexes = await q<{ indexdef: string }>(
    `SELECT indexdef FROM pg_indexes WHERE schemaname = ? AND tablename NOT LIKE 'knex_%'
      ORDER BY indexname`,
  );
  const constraints = await q<{ relname: string; conname: string; def: string }>(
    `SELECT c.relname, k.conname, pg_get_constraintdef(k.oid) AS def
       FROM pg_constraint k JOIN pg_class c ON c.oid = k.conrelid
       JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = ? AND c.relname NOT LIKE 'knex_%'
      ORDER BY c.relname, k.conname`,
  );
  const functions = await q<{ def: string }>(
    `SELECT pg_get_functiondef(p.oid) AS def FROM pg_proc p
       JOIN pg_namespace n ON n.oid = p.pronamespace WHERE n.nspname = ? ORDER BY p.proname`,
  );
  const lines = [
    ...columns.map(
      (c) =>
        `column ${c.table_name}.${c.column_name} ${c.data_type}` +
        `${c.is_nullable === 'NO' ? ' not null' : ''}` +
        `${c.column_default ? ` default ${c.column_default}` : ''}` +
        `${c.generation_expression ? ` generated ${c.generation_expression}` : ''}`,
    ),
    ...constraints.map((c) => `constraint ${c.relname}.${c.conname} ${c.def}`),
    ...indexes.map((i) => `index ${i.indexdef}`),
    ...functions.map((f) => `function ${f.def.trim()}`),
  ];
  // The test's own schema name is no part of the schema.
  return lines.join('\n').replaceAll(`"${schema}".`, '').replaceAll(`${schema}.`, '') + '\n';
}

describe('migrations on SQLite', () => {
  it('an empty database migrated to the head has the committed schema', async () => {
    const db = createDb({ sqliteFile: path.join(dir, 'empty.sqlite') });
    try {
      await migrateLatest(db);
      await expect(await sqliteSchema(db)).toMatchFileSnapshot('schema/sqlite.sql');
    } finally {
      await db.destroy();
    }
  });

  it('a database seeded at 0020 and migrated to the head has the same schema and its rows', async () => {
    const db = createDb({ sqliteFile: path.join(dir, 'seeded.sqlite') });
    try {
      await migrateUpTo(db, SEEDED_AT);
      await seedAt0020(db);
      await migrateLatest(db);
      await expect(await sqliteSchema(db)).toMatchFileSnapshot('schema/sqlite.sql');
      expect(await db('files').pluck('original_name')).toEqual(['morning.mp4']);
      expect(await db('corrected_frames').pluck('frame_index')).toEqual([3]);
    } finally {
      await db.destroy();
    }
  });
});

describe('migrations on PostgreSQL', () => {
  async function inSchema(run: (db: Knex, schema: string) => Promise<void>): Promise<void> {
    const schema = `hs_schema_${crypto.randomBytes(6).toString('hex')}`;
    const db = createDb({ databaseUrl: PG_URL, searchPath: schema, poolMax: 2 });
    try {
      await run(db, schema);
    } finally {
      await db.destroy();
      await dropSchema(schema);
    }
  }

  it.skipIf(!PG_AVAILABLE)(
    'an empty database migrated to the head has the committed schema',
    async () => {
      await inSchema(async (db, schema) => {
        await migrateLatest(db);
        await expect(await pgSchema(db, schema)).toMatchFileSnapshot('schema/postgres.txt');
      });
    },
  );

  it.skipIf(!PG_AVAILABLE)(
    'a database seeded at 0020 and migrated to the head has the same schema and its rows',
    async () => {
      await inSchema(async (db, schema) => {
        await migrateUpTo(db, SEEDED_AT);
        await seedAt0020(db);
        await migrateLatest(db);
        await expect(await pgSchema(db, schema)).toMatchFileSnapshot('schema/postgres.txt');
        expect(await db('files').pluck('original_name')).toEqual(['morning.mp4']);
        expect(await db('corrected_frames').pluck('frame_index')).toEqual([3]);
      });
    },
  );
});

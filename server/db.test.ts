// The SQLite pool of readers beside the single writer: it sees every committed write at once
// (WAL), and it cannot write.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { createDb, migrateLatest } from './db.ts';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hs-db-'));
const file = path.join(dir, 'test.sqlite');
const db = createDb({ sqliteFile: file });
const readers = createDb({ sqliteFile: file, readOnly: true, poolMax: 3 });

afterAll(async () => {
  await readers.destroy();
  await db.destroy();
  fs.rmSync(dir, { recursive: true, force: true });
});

it('reads what the writer committed, in parallel, and refuses to write', async () => {
  await migrateLatest(db);
  const user = {
    name: 'Keeper',
    password_hash: 'x',
    role: 'USER',
    created_at: '2025-06-01T08:00:00.000Z',
  };
  await db('users').insert({ ...user, email: 'first@example.com' });
  const emails = async () =>
    (await readers('users').select('email').orderBy('email')).map(
      (r: { email: string }) => r.email,
    );
  expect(await emails()).toEqual(['first@example.com']);
  await db('users').insert({ ...user, email: 'second@example.com' });
  const all = await Promise.all([emails(), emails(), emails()]);
  expect(all).toEqual(Array(3).fill(['first@example.com', 'second@example.com']));
  await expect(readers('users').insert({ ...user, email: 'third@example.com' })).rejects.toThrow(
    /readonly|read-only|query_only/i,
  );
});

// The session look-up's memory cache, against a real SQLite file: revocation in this process is
// immediate, a change made by another process is seen within SESSION_CACHE_MS.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Knex } from 'knex';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, migrateLatest } from '../db.ts';
import { ManualClock } from '../clock.ts';
import { SESSION_CACHE_MS, SessionStore } from './sessions.ts';
import { hashToken } from './tokens.ts';

describe('SessionStore', () => {
  let dir: string;
  let db: Knex;
  let userId: number;
  const clock = new ManualClock('2025-06-01T08:00:00.000Z');

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hs-sessions-'));
    db = createDb({ sqliteFile: path.join(dir, 'test.sqlite') });
    await migrateLatest(db);
    const inserted: Array<{ id: number }> = await db('users').insert(
      {
        email: 'keeper@example.com',
        name: 'Keeper',
        password_hash: 'x',
        role: 'USER',
        created_at: clock.now().toISOString(),
      },
      ['id'],
    );
    userId = inserted[0]!.id;
  });

  afterAll(async () => {
    await db.destroy();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('forgets a session revoked in this process at once', async () => {
    const store = new SessionStore(db, clock, 86_400_000);
    const token = await store.create(userId);
    const found = await store.lookup(token);
    expect(found?.user).toEqual({
      id: userId,
      email: 'keeper@example.com',
      name: 'Keeper',
      role: 'USER',
    });
    await store.revoke(found!.sessionId);
    expect(await store.lookup(token)).toBeNull();

    const a = await store.create(userId);
    const b = await store.create(userId);
    expect(await store.lookup(a)).not.toBeNull();
    expect(await store.lookup(b)).not.toBeNull();
    await store.revokeAllForUser(userId, hashToken(b));
    expect(await store.lookup(a)).toBeNull();
    expect(await store.lookup(b)).not.toBeNull();
  });

  it('sees a change made by another process within SESSION_CACHE_MS', async () => {
    const store = new SessionStore(db, clock, 86_400_000);
    const token = await store.create(userId);
    expect((await store.lookup(token))?.user.role).toBe('USER');
    await db('users').where({ id: userId }).update({ role: 'ADMIN' });
    await db('sessions')
      .where({ id: hashToken(token) })
      .update({ revoked_at: clock.now().toISOString() });
    // Still served from memory just before the cache entry ages out...
    clock.advance(SESSION_CACHE_MS - 1);
    expect(await store.lookup(token)).not.toBeNull();
    // ...then read again: the other process's revocation holds.
    clock.advance(1);
    expect(await store.lookup(token)).toBeNull();
    await db('users').where({ id: userId }).update({ role: 'USER' });
  });

  it('expires an idle session even while it is cached', async () => {
    const store = new SessionStore(db, clock, 1_000);
    const token = await store.create(userId);
    expect(await store.lookup(token)).not.toBeNull();
    clock.advance(1_001);
    expect(await store.lookup(token)).toBeNull();
  });
});

/** The SQL of server-side sessions (sessions.ts): rows keyed by the sha256 of the cookie token. */
import type { Knex } from 'knex';

/** A live (not revoked) session joined with its user. */
export interface SessionJoinRow {
  expires_at: string;
  last_seen_at: string;
  user_id: number;
  email: string;
  name: string;
  role: 'USER' | 'ADMIN';
}

export async function insertSession(
  db: Knex,
  session: { id: string; userId: number; now: Date; expiresAt: Date },
): Promise<void> {
  await db('sessions').insert({
    id: session.id,
    user_id: session.userId,
    created_at: session.now.toISOString(),
    last_seen_at: session.now.toISOString(),
    expires_at: session.expiresAt.toISOString(),
    revoked_at: null,
  });
}

/** The session and its user, unless revoked or unknown (expiry is the caller's to judge). */
export async function findLiveSession(db: Knex, id: string): Promise<SessionJoinRow | undefined> {
  const row = await db<SessionJoinRow>('sessions')
    .join('users', 'users.id', 'sessions.user_id')
    .where('sessions.id', id)
    .whereNull('sessions.revoked_at')
    .first<SessionJoinRow | undefined>(
      'sessions.expires_at',
      'sessions.last_seen_at',
      'users.id as user_id',
      'users.email',
      'users.name',
      'users.role',
    );
  return row ? { ...row, user_id: Number(row.user_id) } : undefined;
}

export async function touchSession(
  db: Knex,
  id: string,
  lastSeenAt: Date,
  expiresAt: Date,
): Promise<void> {
  await db('sessions')
    .where({ id })
    .update({ last_seen_at: lastSeenAt.toISOString(), expires_at: expiresAt.toISOString() });
}

export async function revokeSession(db: Knex, id: string, at: Date): Promise<void> {
  await db('sessions')
    .where({ id })
    .whereNull('revoked_at')
    .update({ revoked_at: at.toISOString() });
}

/** Revokes every live session of the user except, optionally, one. */
export async function revokeUserSessions(
  db: Knex,
  userId: number,
  at: Date,
  exceptSessionId?: string,
): Promise<void> {
  const q = db('sessions').where({ user_id: userId }).whereNull('revoked_at');
  if (exceptSessionId) void q.whereNot({ id: exceptSessionId });
  await q.update({ revoked_at: at.toISOString() });
}

/**
 * Server-side sessions (decisions.md 1): the client holds an opaque 32-byte random token in the
 * `hs_session` cookie; the database holds only its sha256. Sessions expire after
 * SESSION_IDLE_DAYS without use and can be revoked (logout, password reset).
 */
import type { Db } from '../db.ts';
import type { Clock } from '../clock.ts';
import { hashToken, newToken } from './tokens.ts';
import {
  findLiveSession,
  insertSession,
  revokeSession,
  revokeUserSessions,
  touchSession,
} from './sessions-repository.ts';

export const SESSION_COOKIE = 'hs_session';

export type Role = 'USER' | 'ADMIN';

export interface SessionUser {
  id: number;
  email: string;
  name: string;
  role: Role;
}

/** Extend a session's expiry at most once a minute, not on every request. */
const TOUCH_INTERVAL_MS = 60_000;

/**
 * How long a looked-up session is trusted from memory before the database is asked again.
 * Every API call starts with this look-up, and the join was the largest single cost of a
 * cheap route under load. Logout and password reset in this process forget the entry at once;
 * a change made by another process (`hivesight users grant` promoting an admin, a second
 * server behind a balancer revoking a session) is seen within this many milliseconds.
 */
export const SESSION_CACHE_MS = 5_000;
/** Bounds memory: the oldest entries go first past this many cached sessions. */
const SESSION_CACHE_MAX = 10_000;

interface CachedSession {
  user: SessionUser;
  expiresAt: number;
  lastSeenAt: number;
  cachedAt: number;
}

export class SessionStore {
  private readonly cache = new Map<string, CachedSession>();
  /** Bumped by every revocation, so a look-up that raced one does not cache what it read. */
  private revocations = 0;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly idleMs: number,
  ) {}

  get idleSeconds(): number {
    return Math.floor(this.idleMs / 1000);
  }

  async create(userId: number): Promise<string> {
    const { token, hash } = newToken();
    const now = this.clock.now();
    await insertSession(this.db, {
      id: hash,
      userId,
      now,
      expiresAt: new Date(now.getTime() + this.idleMs),
    });
    return token;
  }

  /** The user behind a cookie token, or null when unknown, revoked or idle too long. */
  async lookup(token: string): Promise<{ user: SessionUser; sessionId: string } | null> {
    if (!/^[A-Za-z0-9_-]{20,100}$/.test(token)) return null;
    const id = hashToken(token);
    const now = this.clock.now().getTime();
    let entry = this.cache.get(id);
    if (!entry || now - entry.cachedAt >= SESSION_CACHE_MS || now < entry.cachedAt) {
      this.cache.delete(id);
      const before = this.revocations;
      entry = (await this.load(id, now)) ?? undefined;
      if (!entry) return null;
      if (this.revocations === before) {
        if (this.cache.size >= SESSION_CACHE_MAX) {
          this.cache.delete(this.cache.keys().next().value!);
        }
        this.cache.set(id, entry);
      }
    }
    if (entry.expiresAt <= now) {
      this.cache.delete(id);
      return null;
    }
    if (now - entry.lastSeenAt > TOUCH_INTERVAL_MS) {
      entry.lastSeenAt = now;
      entry.expiresAt = now + this.idleMs;
      await touchSession(this.db, id, new Date(now), new Date(entry.expiresAt));
    }
    return { user: entry.user, sessionId: id };
  }

  private async load(id: string, now: number): Promise<CachedSession | null> {
    const row = await findLiveSession(this.db, id);
    if (!row) return null;
    return {
      // Frozen: one object now serves every request of the session for SESSION_CACHE_MS.
      user: Object.freeze({
        id: row.user_id,
        email: row.email,
        name: row.name,
        role: row.role,
      }),
      expiresAt: Date.parse(row.expires_at),
      lastSeenAt: Date.parse(row.last_seen_at),
      cachedAt: now,
    };
  }

  // Revocations write first, then forget: a look-up that read the row before the write either
  // cached it already (forgotten here) or sees the counter move and does not cache it.
  async revoke(sessionId: string): Promise<void> {
    await revokeSession(this.db, sessionId, this.clock.now());
    this.revocations += 1;
    this.cache.delete(sessionId);
  }

  /** Ends every session of a user except, optionally, one. */
  async revokeAllForUser(userId: number, exceptSessionId?: string): Promise<void> {
    await revokeUserSessions(this.db, userId, this.clock.now(), exceptSessionId);
    this.revocations += 1;
    for (const [id, entry] of this.cache) {
      if (entry.user.id === userId && id !== exceptSessionId) this.cache.delete(id);
    }
  }
}

/** Set-Cookie value for the session cookie (written by hand so `Secure` works behind a proxy). */
export function sessionCookie(
  token: string,
  opts: { secure: boolean; maxAgeSeconds: number },
): string {
  const parts = [
    `${SESSION_COOKIE}=${token}`,
    'Path=/',
    'HttpOnly',
    'SameSite=Lax',
    `Max-Age=${opts.maxAgeSeconds}`,
  ];
  if (opts.secure) parts.push('Secure');
  return parts.join('; ');
}

export function clearedSessionCookie(secure: boolean): string {
  return sessionCookie('', { secure, maxAgeSeconds: 0 });
}

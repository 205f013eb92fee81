/**
 * AppContext: everything a route module needs, built once at start and passed to each
 * `xRoutes(app: AppContext): Router`. Route modules never read the environment or open their
 * own database; tests build a context with a temp database, a manual clock and a real mailer.
 */
import type { Db } from './db.ts';
import type { Context, Middleware } from 'koa';
import type { Config } from './config.ts';
import type { Clock } from './clock.ts';
import { systemClock } from './clock.ts';
import type { Logger } from './logger.ts';
import { createLogger } from './logger.ts';
import type { Mailer } from './mailer.ts';
import { createMailer } from './mailer.ts';
import { createDb } from './db.ts';
import type { Sleep } from './sleep.ts';
import { realSleep } from './sleep.ts';
import { DbRateLimiter } from './auth/rate-limit.ts';
import { SESSION_COOKIE, SessionStore, sessionCookie } from './auth/sessions.ts';
import type { SessionUser } from './auth/sessions.ts';
import { Forbidden, Unauthorized } from './errors.ts';

export type { SessionUser, Role } from './auth/sessions.ts';

/** What `ctx.state` holds after `requireUser` / `requireAdmin`. */
export interface AuthState {
  user: SessionUser;
  sessionId: string;
}

export interface AppContext {
  readonly config: Config;
  readonly db: Db;
  /**
   * For the hot read-only lists (files list, admin search): on SQLite a pool of read-only
   * connections beside `db`'s single one (WAL readers see every committed write), so those
   * reads run in parallel with each other and with writes; on PostgreSQL simply `db`.
   */
  readonly readDb: Db;
  readonly clock: Clock;
  /** The waits of the sign-in and registration slow-downs; tests pass one that only records. */
  readonly sleep: Sleep;
  readonly mailer: Mailer;
  readonly logger: Logger;
  readonly sessions: SessionStore;
  /** Sign-in, forgot-password and registration limits, counted in the database. */
  readonly limiter: DbRateLimiter;
  /** 401 unless a valid session cookie; then `ctx.state.user` / `ctx.state.sessionId` are set. */
  readonly requireUser: Middleware;
  /** requireUser, then 403 unless the user's role is ADMIN. */
  readonly requireAdmin: Middleware;
}

/** The signed-in user (only valid behind requireUser/requireAdmin). */
export function currentUser(ctx: Context): SessionUser {
  const user = (ctx.state as Partial<AuthState>).user;
  if (!user) throw new Unauthorized();
  return user;
}

export interface ContextOverrides {
  /** Also serves as readDb unless that is given. */
  db?: Db;
  readDb?: Db;
  clock?: Clock;
  sleep?: Sleep;
  mailer?: Mailer;
  logger?: Logger;
}

export function createAppContext(config: Config, overrides: ContextOverrides = {}): AppContext {
  const clock = overrides.clock ?? systemClock;
  const logger = overrides.logger ?? createLogger();
  const db =
    overrides.db ?? createDb({ databaseUrl: config.databaseUrl, sqliteFile: config.sqliteFile });
  const readDb =
    overrides.readDb ??
    (overrides.db || config.databaseUrl
      ? db
      : createDb({
          sqliteFile: config.sqliteFile,
          readOnly: true,
          poolMax: config.sqliteReadConnections,
        }));
  const mailer =
    overrides.mailer ??
    createMailer({
      smtpUrl: config.smtpUrl,
      from: config.mailFrom,
      dataDir: config.dataDir,
      logger,
    });
  const sessions = new SessionStore(db, clock, config.sessionIdleDays * 86_400_000);
  const limiter = new DbRateLimiter(db, clock, config.rateLimitWindowSeconds * 1000);

  const requireUser: Middleware = async (ctx, next) => {
    const token = ctx.cookies.get(SESSION_COOKIE);
    const found = token ? await sessions.lookup(token) : null;
    if (!found || !token) throw new Unauthorized();
    const state = ctx.state as Partial<AuthState>;
    state.user = found.user;
    state.sessionId = found.sessionId;
    // Keep the browser cookie alive as long as the server-side session.
    ctx.append(
      'Set-Cookie',
      sessionCookie(token, { secure: config.secureCookies, maxAgeSeconds: sessions.idleSeconds }),
    );
    await next();
  };
  const requireAdmin: Middleware = async (ctx, next) => {
    await requireUser(ctx, async () => {
      if (currentUser(ctx).role !== 'ADMIN') throw new Forbidden();
      await next();
    });
  };

  return Object.freeze({
    config,
    db,
    readDb,
    clock,
    sleep: overrides.sleep ?? realSleep,
    mailer,
    logger,
    sessions,
    limiter,
    requireUser,
    requireAdmin,
  });
}

/** Closes the context's database pools (the read pool first: it is idle once requests stop). */
export async function closeDatabases(app: AppContext): Promise<void> {
  if (app.readDb !== app.db) await app.readDb.destroy();
  await app.db.destroy();
}

/**
 * Helpers for server integration tests: a real server on port 0 with a temp DATA_DIR, on SQLite
 * or on PostgreSQL (127.0.0.1:5432 db `test`, a fresh schema per server, dropped after), and a
 * cookie-keeping fetch client. PostgreSQL suites skip with a note when no server answers.
 *
 *   describe.each(DB_KINDS)('thing on %s', (kind) => {
 *     const t = useTestServer(kind);            // beforeAll/afterAll inside
 *     it('...', async () => { const c = t.client(); await signIn(c, ...); });
 *   });
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { loadConfig } from '../../server/config.ts';
import type { Clock } from '../../server/clock.ts';
import { createDb } from '../../server/db.ts';
import type { Logger } from '../../server/logger.ts';
import { silentLogger } from '../../server/logger.ts';
import type { Mailer } from '../../server/mailer.ts';
import type { RunningServer } from '../../server/server.ts';
import { startServer } from '../../server/server.ts';
import type { Role } from '../../server/auth/sessions.ts';
import type { Sleep } from '../../server/sleep.ts';
import { createUser, findUserByEmail, grantProduct } from '../../server/users/repo.ts';
import type { ProductName } from '../../server/users/plans.ts';
import { dropSchema, PG_URL, postgresAnswers } from '../support/postgres.ts';

export type DbKind = 'sqlite' | 'postgres';
export { PG_URL };

export const PG_AVAILABLE = await postgresAnswers();
if (!PG_AVAILABLE)
  console.warn(`[server tests] PostgreSQL not reachable at ${PG_URL}: postgres suites are skipped`);

export const DB_KINDS: DbKind[] = ['sqlite', 'postgres'];

export function dbAvailable(kind: DbKind): boolean {
  return kind === 'sqlite' || PG_AVAILABLE;
}

export interface TestServer extends RunningServer {
  kind: DbKind;
  dataDir: string;
  /** Base URL, e.g. http://127.0.0.1:41234 */
  url: string;
  /** A fresh cookie-keeping client for this server. */
  client(): TestClient;
}

export interface TestServerOptions {
  /** Extra environment for loadConfig (PORT, HOST, DATA_DIR, DATABASE_URL are set here). */
  env?: Record<string, string>;
  clock?: Clock;
  /** The server's slow-down waits (default real ones), e.g. `RecordingSleep.sleep`. */
  sleep?: Sleep;
  mailer?: Mailer;
  /** Where the server logs (default silent); e.g. a capturing logger. */
  logger?: Logger;
  /** Start the in-process worker (default false). */
  worker?: boolean;
  consoleDir?: string;
}

export async function startTestServer(
  kind: DbKind,
  opts: TestServerOptions = {},
): Promise<TestServer> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hs-test-'));
  const schema = `hs_test_${crypto.randomBytes(6).toString('hex')}`;
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    WORKER_CONCURRENCY: opts.worker ? '1' : '0',
    ...(kind === 'postgres' ? { DATABASE_URL: PG_URL } : {}),
    ...opts.env,
  });
  // SQLite: the context opens the file itself, with its pool of readers, as in production.
  const db =
    kind === 'postgres'
      ? createDb({ databaseUrl: PG_URL, searchPath: schema, poolMax: 5 })
      : undefined;
  const running = await startServer(config, {
    db,
    clock: opts.clock,
    sleep: opts.sleep,
    mailer: opts.mailer,
    logger: opts.logger ?? silentLogger,
    worker: opts.worker ?? false,
    consoleDir: opts.consoleDir ?? path.join(dataDir, 'no-console'),
    // Every answer a test provokes is checked against the contract (server/middleware/answer-check.ts).
    checkAnswers: true,
  });
  const stop = async (): Promise<void> => {
    await running.stop();
    if (kind === 'postgres') {
      await dropSchema(schema);
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  return { ...running, kind, dataDir, stop, client: () => new TestClient(running.url) };
}

/** beforeAll/afterAll around a test server; `.server` is set once started. */
export function useTestServer(
  kind: DbKind,
  opts: TestServerOptions = {},
): { readonly server: TestServer; client(): TestClient } {
  let server: TestServer | undefined;
  beforeAll(async () => {
    if (dbAvailable(kind)) server = await startTestServer(kind, opts);
  });
  afterAll(async () => {
    await server?.stop();
  });
  return {
    get server(): TestServer {
      if (!server) throw new Error('test server not started');
      return server;
    },
    client: () => {
      if (!server) throw new Error('test server not started');
      return server.client();
    },
  };
}

export interface TestResponse {
  status: number;
  headers: Headers;
  text: string;
  /** Parsed JSON body (throws if not JSON). */
  json<T = unknown>(): T;
}

/** A fetch client that keeps cookies (Set-Cookie -> Cookie) like a browser for one origin. */
export class TestClient {
  readonly cookies = new Map<string, string>();
  constructor(readonly baseUrl: string) {}

  get cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  async request(
    method: string,
    urlPath: string,
    opts: { json?: unknown; body?: BodyInit; headers?: Record<string, string> } = {},
  ): Promise<TestResponse> {
    const headers: Record<string, string> = { ...opts.headers };
    if (this.cookies.size > 0 && !('cookie' in headers)) headers.cookie = this.cookieHeader;
    let body = opts.body;
    if (opts.json !== undefined) {
      headers['content-type'] ??= 'application/json';
      body = JSON.stringify(opts.json);
    }
    const res = await fetch(this.baseUrl + urlPath, { method, headers, body, redirect: 'manual' });
    for (const line of res.headers.getSetCookie()) {
      const [pair = '', ...attrs] = line.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      const maxAge = attrs.map((a) => a.trim().toLowerCase()).find((a) => a.startsWith('max-age='));
      if (value === '' || maxAge === 'max-age=0') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    const text = await res.text();
    return {
      status: res.status,
      headers: res.headers,
      text,
      json: <T>() => JSON.parse(text) as T,
    };
  }

  post(urlPath: string, json?: unknown, headers?: Record<string, string>): Promise<TestResponse> {
    return this.request('POST', urlPath, { json: json ?? {}, headers });
  }

  get(urlPath: string, headers?: Record<string, string>): Promise<TestResponse> {
    return this.request('GET', urlPath, { headers });
  }
}

let counter = 0;
/** A unique e-mail address for a test. */
export function uniqueEmail(prefix = 'user'): string {
  counter += 1;
  return `${prefix}-${Date.now().toString(36)}-${counter}@example.com`;
}

export const TEST_PASSWORD = 'correct-horse-1';

/** Registers through the API (201 expected) and returns the e-mail. */
export async function signUp(
  client: TestClient,
  input: { name?: string; email?: string; password?: string; locations?: string[] } = {},
): Promise<string> {
  const email = input.email ?? uniqueEmail();
  const password = input.password ?? TEST_PASSWORD;
  const res = await client.post('/api/register-user/', {
    name: input.name ?? 'Test Beekeeper',
    email,
    password,
    confirmPassword: password,
    locations: input.locations ?? ['Apiary North'],
  });
  if (res.status !== 201) throw new Error(`signUp failed: ${res.status} ${res.text}`);
  return email;
}

/** Signs in through the API; returns the role string ('' when refused). */
export async function signIn(
  client: TestClient,
  email: string,
  password = TEST_PASSWORD,
): Promise<string> {
  const res = await client.post('/api/check-valid-user/', { email_address: email, password });
  if (res.status !== 200) throw new Error(`signIn failed: ${res.status} ${res.text}`);
  return res.text;
}

/** Creates a user straight in the database (e.g. an admin) and returns its id. */
export async function createUserDirect(
  server: TestServer,
  input: {
    email?: string;
    name?: string;
    password?: string;
    role?: Role;
    locations?: string[];
  } = {},
): Promise<{ id: number; email: string; password: string }> {
  const email = input.email ?? uniqueEmail(input.role === 'ADMIN' ? 'admin' : 'user');
  const password = input.password ?? TEST_PASSWORD;
  const user = await createUser(server.app.db, server.app.clock, {
    email,
    name: input.name ?? 'Direct User',
    password,
    role: input.role ?? 'USER',
    locations: input.locations ?? [],
  });
  return { id: user.id, email: user.email, password };
}

/** A signed-in client for a new user (ADMIN when asked). */
export async function signedInClient(
  server: TestServer,
  role: Role = 'USER',
): Promise<{ client: TestClient; email: string; id: number }> {
  const user = await createUserDirect(server, { role });
  const client = server.client();
  const got = await signIn(client, user.email, user.password);
  if (got !== role) throw new Error(`expected role ${role}, got "${got}"`);
  return { client, email: user.email, id: user.id };
}

/** Grants a product (dates YYYY-MM-DD; `from` defaults to 2000-01-01). */
export async function grant(
  server: TestServer,
  email: string,
  product: ProductName,
  until: string,
  from = '2000-01-01',
): Promise<void> {
  const user = await findUserByEmail(server.app.db, email);
  if (!user) throw new Error(`no user ${email}`);
  await grantProduct(server.app.db, user.id, product, from, until);
}

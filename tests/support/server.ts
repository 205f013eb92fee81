/**
 * A real server for a test: on port 0 with a temp DATA_DIR, on SQLite or on PostgreSQL
 * (127.0.0.1:5432 db `test`, a fresh schema per server, dropped after), with a cookie-keeping
 * client (`http-client.ts`). PostgreSQL suites skip with a note when no server answers. Users,
 * hives, files and corrected frames come from `factories/`.
 *
 *   describe.each(DB_KINDS)('thing on %s', (kind) => {
 *     const t = useTestServer(kind);            // beforeAll/afterAll inside
 *     it('...', async () => { const { client } = await signedInUser(t.server); });
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
import type { Sleep } from '../../server/sleep.ts';
import { TestClient } from './http-client.ts';
import { dropSchema, PG_URL, postgresAnswers } from './postgres.ts';

export type DbKind = 'sqlite' | 'postgres';
export { PG_URL, TestClient };
export type { TestResponse } from './http-client.ts';

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

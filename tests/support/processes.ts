/**
 * Real `hivesight serve` / `hivesight worker` child processes for the fault tests and the load
 * script: started through the CLI on a data folder (SQLite) or a throw-away PostgreSQL schema,
 * ready when their log says so, killed with SIGKILL or stopped with SIGTERM, and a client that
 * uploads as the stress users do. No vitest imports: the load script uses this too.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import knexFactory from 'knex';
import type { Knex } from 'knex';
import { createDb } from '../../server/db.ts';
import { uploadFile } from './factories/file.ts';
import { TestClient } from './http-client.ts';
import { PG_URL } from './postgres.ts';
import { waitFor } from './wait.ts';
export { waitFor };

export { PG_URL, postgresAnswers } from './postgres.ts';

export const ROOT = path.resolve(import.meta.dirname, '..', '..');
export const CLI = path.join(ROOT, 'bin', 'hivesight.mjs');

export type DbKind = 'sqlite' | 'postgres';

/** Where one test's server keeps its data: a temp DATA_DIR, plus a PostgreSQL schema. */
export interface DataPlace {
  kind: DbKind;
  dataDir: string;
  /** DATA_DIR and, for PostgreSQL, DATABASE_URL (with search_path) for the children. */
  env: Record<string, string>;
  /** The test's own handle on the same database (children migrate it). */
  db: Knex;
  /** Closes the handle, drops the schema and removes the data folder. */
  drop(): Promise<void>;
}

export async function makeDataPlace(
  kind: DbKind,
  opts: { dataDir?: string; pgUrl?: string } = {},
): Promise<DataPlace> {
  const dataDir = opts.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'hs-stress-'));
  const pgUrl = opts.pgUrl ?? PG_URL;
  if (kind === 'sqlite') {
    const db = createDb({ sqliteFile: path.join(dataDir, 'hivesight.sqlite') });
    return {
      kind,
      dataDir,
      env: { DATA_DIR: dataDir },
      db,
      drop: async () => {
        await db.destroy();
        if (!opts.dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
      },
    };
  }
  const schema = `hs_stress_${crypto.randomBytes(6).toString('hex')}`;
  const admin = knexFactory({ client: 'pg', connection: pgUrl, pool: { min: 0, max: 1 } });
  try {
    await admin.raw(`CREATE SCHEMA "${schema}"`);
  } finally {
    await admin.destroy();
  }
  const db = createDb({ databaseUrl: pgUrl, searchPath: schema, poolMax: 3 });
  const sep = pgUrl.includes('?') ? '&' : '?';
  return {
    kind,
    dataDir,
    env: {
      DATA_DIR: dataDir,
      DATABASE_URL: `${pgUrl}${sep}options=${encodeURIComponent(`-c search_path=${schema}`)}`,
    },
    db,
    drop: async () => {
      await db.destroy();
      const a = knexFactory({ client: 'pg', connection: pgUrl, pool: { min: 0, max: 1 } });
      try {
        await a.raw(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      } finally {
        await a.destroy();
      }
      if (!opts.dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface CliProcess {
  readonly name: string;
  readonly child: ChildProcess;
  /** Base URL for `serve` (from its "hivesight listening" log line); '' for a worker. */
  readonly url: string;
  /** Resolves when the process has exited. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** The last log lines (stdout and stderr). */
  logs(): string[];
  /** Parsed JSON log lines so far (kept up to the last 2000). */
  events(): Array<Record<string, unknown>>;
  /** SIGKILL, then wait for the exit. */
  kill9(): Promise<void>;
  /** SIGTERM (graceful), SIGKILL after `graceMs`. */
  stop(graceMs?: number): Promise<void>;
}

const live = new Set<CliProcess>();

/** SIGKILLs every child still running (for afterAll / process exit). */
export async function killAll(): Promise<void> {
  await Promise.all([...live].map((p) => p.kill9()));
}

/**
 * Starts `node bin/hivesight.mjs <command>` with `env` on top of this process's environment,
 * and waits until it is ready: `serve` listening (PORT 0 unless given), `worker` started.
 */
export async function startCli(
  command: 'serve' | 'worker',
  env: Record<string, string>,
  opts: { name?: string; readyTimeoutMs?: number } = {},
): Promise<CliProcess> {
  const name = opts.name ?? command;
  const childEnv: NodeJS.ProcessEnv = {
    ...process.env,
    HOST: '127.0.0.1',
    PORT: '0',
    ...env,
  };
  const child = spawn(process.execPath, [CLI, command], {
    cwd: ROOT,
    env: childEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  const events: Array<Record<string, unknown>> = [];
  let url = '';
  let ready: (() => void) | null = null;
  const readyPromise = new Promise<void>((resolve) => (ready = resolve));
  const onLine = (line: string): void => {
    lines.push(line);
    if (lines.length > 400) lines.shift();
    if (!line.startsWith('{')) return;
    try {
      const event = JSON.parse(line) as Record<string, unknown>;
      events.push(event);
      if (events.length > 2000) events.shift();
      if (command === 'serve' && event.msg === 'hivesight listening') {
        url = String(event.url);
        ready?.();
      }
      if (command === 'worker' && event.msg === 'worker started') ready?.();
    } catch {
      // not a log line
    }
  };
  for (const stream of [child.stdout, child.stderr]) {
    let buffered = '';
    stream.setEncoding('utf8');
    stream.on('data', (chunk: string) => {
      buffered += chunk;
      let nl: number;
      while ((nl = buffered.indexOf('\n')) >= 0) {
        onLine(buffered.slice(0, nl));
        buffered = buffered.slice(nl + 1);
      }
    });
  }
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const proc: CliProcess = {
    name,
    child,
    get url() {
      return url;
    },
    exited,
    logs: () => [...lines],
    events: () => [...events],
    async kill9() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
      live.delete(proc);
    },
    async stop(graceMs = 20_000) {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      await exited;
      clearTimeout(timer);
      live.delete(proc);
    },
  };
  live.add(proc);
  const timeoutMs = opts.readyTimeoutMs ?? 120_000;
  let timer: NodeJS.Timeout | undefined;
  const outcome = await Promise.race([
    readyPromise.then(() => 'ready' as const),
    exited.then(() => 'exited' as const),
    new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), timeoutMs))),
  ]);
  clearTimeout(timer);
  if (outcome !== 'ready') {
    await proc.kill9();
    throw new Error(`${name} did not start (${outcome}):\n${lines.slice(-30).join('\n')}`);
  }
  return proc;
}

/** The cookie-keeping client with the stress tests' upload (both required fields filled in). */
export class HttpClient extends TestClient {
  /** POST /api/upload_docs/ with the file and the two required fields. */
  upload(file: { name: string; data: Uint8Array }, location = 'Apiary North') {
    return uploadFile(this, { ...file, location, description: 'stress test upload' });
  }
}

export const STRESS_PASSWORD = 'stress-horse-1';

/** Registers (201) and signs in a new user with the location "Apiary North". */
export async function registerAndSignIn(baseUrl: string, email: string): Promise<HttpClient> {
  const client = new HttpClient(baseUrl);
  const reg = await client.post('/api/register-user/', {
    name: 'Stress Beekeeper',
    email,
    password: STRESS_PASSWORD,
    confirmPassword: STRESS_PASSWORD,
    locations: ['Apiary North'],
  });
  if (reg.status !== 201) throw new Error(`register failed: ${reg.status} ${reg.text}`);
  const res = await client.post('/api/check-valid-user/', {
    email_address: email,
    password: STRESS_PASSWORD,
  });
  if (res.status !== 200 || res.text !== 'USER')
    throw new Error(`sign-in failed: ${res.status} ${res.text}`);
  return client;
}

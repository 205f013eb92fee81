/**
 * Fault injection (issue 6, "Faults"), against the real CLI processes or a real in-test server:
 *
 * - `kill -9` of `hivesight serve` (with its in-process worker) in the middle of a video job,
 *   and of a separate `hivesight worker` (with the serve killed and restarted too): after the
 *   restart the job finishes, the file is PROCESSED and its report is whole (every sampled frame
 *   once), the upload is still there. Builds on tests/integration/queue-worker.test.ts (which
 *   queues a row by hand): here the video comes through the upload API.
 * - The database briefly unavailable (PostgreSQL through a TCP proxy the test cuts; SQLite
 *   locked by another connection): 503 with Retry-After and the one error body, no internals,
 *   nothing half-stored; the server and its worker recover without a restart.
 * - The disk filling up while an upload streams (a small tmpfs as DATA_DIR; root only): 507
 *   "Insufficient storage", no partial file, no row.
 * - ffmpeg hanging on one file (FFMPEG_PATH -> a wrapper that sleeps on a marked file): the job
 *   times out after MEDIA_TIMEOUT_SECONDS, is FAILED with a readable reason, and the worker goes
 *   on to the next job.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import sqlite3 from 'sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeBeeImage, writeBeeVideo, randomBeeScene } from '../../fixtures/index.ts';
import { loadConfig } from '../../server/config.ts';
import { createDb } from '../../server/db.ts';
import type { FileEngine } from '../../server/files/engine.ts';
import { engineFor, setEngineFor } from '../../server/files/engine.ts';
import type { Logger } from '../../server/logger.ts';
import type { RunningServer } from '../../server/server.ts';
import { startServer } from '../../server/server.ts';
import { resolveMediaTools } from '../../engine/index.ts';
import { engineAvailable } from '../support/engine.ts';
import {
  HttpClient,
  killAll,
  makeDataPlace,
  PG_URL,
  postgresAnswers,
  registerAndSignIn,
  startCli,
  waitFor,
} from '../support/processes.ts';
import type { CliProcess, DataPlace, DbKind } from '../support/processes.ts';

const ENGINE = await engineAvailable();
if (!ENGINE.ok) console.warn(`[faults] engine unavailable (${ENGINE.why}): engine faults skipped`);
const PG = await postgresAnswers();
if (!PG)
  console.warn(`[faults] PostgreSQL not reachable at ${PG_URL}: the PostgreSQL faults are skipped`);
const KINDS: DbKind[] = ['sqlite', 'postgres'];
const available = (kind: DbKind) => kind === 'sqlite' || PG;

let emailCounter = 0;
const email = (p: string) => `${p}-${Date.now().toString(36)}-${(emailCounter += 1)}@example.com`;

/**
 * The clips and pictures every test uploads, made once for the whole file (a new upload of the
 * same bytes is a new file and a new job: nothing here tells two uploads apart by content).
 */
const MEDIA = fs.mkdtempSync(path.join(os.tmpdir(), 'hs-faults-media-'));

/**
 * A bee video at 10 fps, sampled at the default 5 fps: 14 s (~70 frames) is long enough to be
 * caught mid-job and short enough for the Free plan's 15 s limit (the stress users hold no
 * product); tests where the job's length does not matter take the 4 s one (~20 frames).
 */
async function beeVideo(seconds: 14 | 4): Promise<Uint8Array> {
  const file = path.join(MEDIA, `bees-${seconds}s.mp4`);
  if (!fs.existsSync(file))
    await writeBeeVideo(file, { width: 320, height: 240, count: 6, seconds, fps: 10, seed: 7 });
  return fs.readFileSync(file);
}
/** The frames a clip of that length is sampled to. */
const SAMPLED = { 14: 70, 4: 20 } as const;

async function beePicture(): Promise<Uint8Array> {
  const file = path.join(MEDIA, 'bees.png');
  if (!fs.existsSync(file))
    await writeBeeImage(file, randomBeeScene({ width: 320, height: 240, count: 5, seed: 3 }));
  return fs.readFileSync(file);
}

interface FileDetail {
  id: number;
  status: string;
  status_reason: string | null;
  counts: Record<string, number | null> | null;
  frames: Array<{ index: number; time_s: number }>;
  media_url: string;
}

interface JobState {
  state: string;
  attempts: number;
  lease_owner: string | null;
}

async function jobOf(place: DataPlace, fileId: number): Promise<JobState | undefined> {
  const row = (await place.db('jobs').where('file_id', fileId).first()) as JobState | undefined;
  return row ? { ...row, attempts: Number(row.attempts) } : undefined;
}

async function fileStatus(place: DataPlace, fileId: number): Promise<string | undefined> {
  const row = await place
    .db('files')
    .where('id', fileId)
    .first<{ status: string } | undefined>('status');
  return row?.status;
}

async function waitFinished(client: HttpClient, fileId: number, timeoutMs = 240_000) {
  return waitFor(
    `file ${fileId} PROCESSED or FAILED`,
    async () => {
      const res = await client.get(`/api/files/${fileId}`);
      if (res.status !== 200) return null;
      const d = res.json<FileDetail>();
      return d.status === 'PROCESSED' || d.status === 'FAILED' ? d : null;
    },
    timeoutMs,
    100,
  );
}

/** The report is whole: frames 0..n-1 once each, n as sampled, the CSV one row per frame. */
async function expectCompleteReport(
  client: HttpClient,
  detail: FileDetail,
  expectedFrames: number,
): Promise<void> {
  expect(detail.status_reason).toBeNull();
  expect(detail.status).toBe('PROCESSED');
  const indices = detail.frames.map((f) => f.index);
  expect(indices).toEqual(Array.from({ length: indices.length }, (_, i) => i));
  expect(Math.abs(indices.length - expectedFrames)).toBeLessThanOrEqual(1);
  expect(detail.counts).not.toBeNull();
  const csv = await client.get(`/api/files/${detail.id}/report.csv`);
  expect(csv.status).toBe(200);
  expect(csv.text.trim().split('\n')).toHaveLength(indices.length + 1);
  const media = await client.get(detail.media_url);
  expect(media.status).toBe(200);
}

afterAll(async () => {
  await killAll();
  fs.rmSync(MEDIA, { recursive: true, force: true });
});

describe.each(KINDS)('kill -9 in the middle of a video job on %s', (kind) => {
  describe.skipIf(!available(kind) || !ENGINE.ok)('', () => {
    let place: DataPlace;
    const procs: CliProcess[] = [];
    beforeAll(async () => {
      place = await makeDataPlace(kind);
    });
    afterAll(async () => {
      await Promise.all(procs.map((p) => p.kill9()));
      await place.drop();
    });
    const env = () => ({
      ...place.env,
      JOB_LEASE_SECONDS: '3',
      RATE_LIMIT_MAX_PER_IP: '1000',
    });
    const start = async (command: 'serve' | 'worker', extra: Record<string, string> = {}) => {
      const p = await startCli(command, { ...env(), ...extra });
      procs.push(p);
      return p;
    };

    it('hivesight serve (in-process worker) killed -9 mid-job: the restarted serve finishes it', async () => {
      const serve1 = await start('serve', { WORKER_CONCURRENCY: '1' });
      const client = await registerAndSignIn(serve1.url, email('kill-serve'));
      const up = await client.upload({ name: 'hive.mp4', data: await beeVideo(14) });
      expect(up.status).toBe(201);
      const fileId = up.json<{ file: { id: number; status: string } }>().file.id;

      await waitFor(
        'the job running',
        async () =>
          (await jobOf(place, fileId))?.state === 'running' &&
          (await fileStatus(place, fileId)) === 'PROCESSING',
      );
      await serve1.kill9();
      // Nothing lost: the row, the job and the upload are still there.
      expect(await fileStatus(place, fileId)).toBe('PROCESSING');
      expect((await jobOf(place, fileId))?.state).toBe('running');
      expect(fs.readdirSync(path.join(place.dataDir, 'media'))).toHaveLength(1);

      const serve2 = await start('serve', { WORKER_CONCURRENCY: '1' });
      client.baseUrl = serve2.url; // the session lives in the database: still signed in
      const detail = await waitFinished(client, fileId);
      await expectCompleteReport(client, detail, SAMPLED[14]);
      const job = await jobOf(place, fileId);
      expect(job?.state).toBe('done');
      expect(job?.attempts).toBe(2);
      await serve2.stop();
    }, 420_000);

    it('a separate hivesight worker killed -9 mid-job, and the serve killed too: nothing lost', async () => {
      const serve1 = await start('serve', { WORKER_CONCURRENCY: '0' });
      const client = await registerAndSignIn(serve1.url, email('kill-worker'));
      const up = await client.upload({ name: 'hive.mp4', data: await beeVideo(14) });
      expect(up.status).toBe(201);
      const fileId = up.json<{ file: { id: number } }>().file.id;

      const worker1 = await start('worker', { WORKER_CONCURRENCY: '1' });
      await waitFor(
        'worker 1 running the job',
        async () => (await fileStatus(place, fileId)) === 'PROCESSING',
      );
      await worker1.kill9();
      // The API does not care: it still answers, and shows the file in progress.
      const during = await client.get(`/api/files/${fileId}`);
      expect(during.status).toBe(200);
      expect(during.json<FileDetail>().status).toBe('PROCESSING');

      const worker2 = await start('worker', { WORKER_CONCURRENCY: '1' });
      await waitFor(
        'worker 2 to take the job over',
        async () => (await jobOf(place, fileId))?.attempts === 2,
        60_000,
      );
      // Now the web process dies while worker 2 analyses: the job does not notice.
      await serve1.kill9();
      const serve2 = await start('serve', { WORKER_CONCURRENCY: '0' });
      client.baseUrl = serve2.url;
      const detail = await waitFinished(client, fileId);
      await expectCompleteReport(client, detail, SAMPLED[14]);
      const job = await jobOf(place, fileId);
      expect(job?.state).toBe('done');
      expect(job?.attempts).toBe(2);
      await Promise.all([worker2.stop(), serve2.stop()]);
    }, 420_000);
  });
});

/** A capturing logger: the fault tests read what the server and worker said. */
function recordingLogger(): Logger & { lines: Array<{ level: string; msg: string }> } {
  const lines: Array<{ level: string; msg: string }> = [];
  const log = (level: string) => (msg: string) => {
    lines.push({ level, msg });
  };
  return { lines, info: log('info'), warn: log('warn'), error: log('error') };
}

/**
 * Wraps a real engine so that each analysis, once done, waits for `release()` before it returns
 * its results: the test can then take the database away at a known point of the job.
 */
function holdAnalyses(real: FileEngine) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const gate = {
    real,
    held: 0,
    release: () => release(),
    engine: {
      probe: (file: string) => real.probe(file),
      async analyse(file: string, options?: Parameters<FileEngine['analyse']>[1]) {
        const output = await real.analyse(file, options);
        gate.held += 1;
        await released;
        return output;
      },
    } satisfies FileEngine,
  };
  return gate;
}

/** A TCP proxy in front of PostgreSQL that the test can cut (refuse + reset) and restore. */
class TcpProxy {
  private server: net.Server | null = null;
  private readonly sockets = new Set<net.Socket>();
  port = 0;
  get isOpen(): boolean {
    return this.server !== null;
  }
  constructor(
    private readonly targetHost: string,
    private readonly targetPort: number,
  ) {}

  async open(): Promise<void> {
    const server = net.createServer((client) => {
      const upstream = net.connect(this.targetPort, this.targetHost);
      for (const s of [client, upstream]) {
        this.sockets.add(s);
        s.on('close', () => this.sockets.delete(s));
        s.on('error', () => {
          client.destroy();
          upstream.destroy();
        });
      }
      client.pipe(upstream);
      upstream.pipe(client);
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
    this.port = (server.address() as net.AddressInfo).port;
    this.server = server;
  }

  /** Stops accepting (ECONNREFUSED) and resets every open connection. */
  async cut(): Promise<void> {
    const server = this.server;
    this.server = null;
    const closed = new Promise<void>((resolve) => server?.close(() => resolve()) ?? resolve());
    for (const s of this.sockets) s.destroy();
    await closed;
  }
}

describe.each(KINDS)('the database briefly unavailable on %s', (kind) => {
  describe.skipIf(!available(kind))('', () => {
    let place: DataPlace;
    let proxy: TcpProxy | null = null;
    let server: RunningServer;
    const logger = recordingLogger();
    let sqliteLock: sqlite3.Database | null = null;
    const exec = (sql: string) =>
      new Promise<void>((resolve, reject) => {
        if (!sqliteLock) return resolve();
        sqliteLock.exec(sql, (err) => (err ? reject(err) : resolve()));
      });

    beforeAll(async () => {
      place = await makeDataPlace(kind);
      let db = place.db;
      const env: Record<string, string> = {
        PORT: '0',
        HOST: '127.0.0.1',
        DATA_DIR: place.dataDir,
        WORKER_CONCURRENCY: ENGINE.ok ? '1' : '0',
        RATE_LIMIT_MAX_PER_IP: '1000',
        JOB_LEASE_SECONDS: '3',
      };
      if (kind === 'postgres') {
        const target = new URL(PG_URL);
        proxy = new TcpProxy(target.hostname, Number(target.port || 5432));
        await proxy.open();
        const viaProxy = new URL(PG_URL);
        viaProxy.host = `127.0.0.1:${proxy.port}`;
        const schema = decodeURIComponent(place.env.DATABASE_URL ?? '').match(
          /search_path=(\w+)/,
        )?.[1];
        env.DATABASE_URL = viaProxy.toString();
        db = createDb({ databaseUrl: viaProxy.toString(), searchPath: schema, poolMax: 5 });
      }
      server = await startServer(loadConfig(env), {
        db,
        logger,
        worker: ENGINE.ok,
        consoleDir: path.join(place.dataDir, 'no-console'),
      });
    });
    afterAll(async () => {
      await exec('ROLLBACK').catch(() => {});
      sqliteLock?.close();
      if (proxy && !proxy.isOpen) await proxy.open();
      await server.stop();
      await place.drop();
      await proxy?.cut();
    });

    const leftovers = () =>
      ['incoming', 'media', 'previews'].flatMap((d) => {
        const dir = path.join(place.dataDir, d);
        return fs.existsSync(dir) ? fs.readdirSync(dir) : [];
      });

    it('answers 503 with Retry-After while the database is away, then recovers on its own', async () => {
      const userEmail = email('db-outage');
      const client = await registerAndSignIn(server.url, userEmail);
      const other = new HttpClient(server.url);
      const filesBefore = Number(
        ((await place.db('files').count('* as n').first()) as { n: number | string }).n,
      );

      // --- the outage ---
      const linesBeforeOutage = logger.lines.length;
      if (proxy) {
        await proxy.cut();
      } else {
        sqliteLock = new sqlite3.Database(path.join(place.dataDir, 'hivesight.sqlite'));
        await exec('BEGIN EXCLUSIVE');
      }
      const signIn = await other.post('/api/check-valid-user/', {
        email_address: userEmail,
        password: 'stress-horse-1',
      });
      expect(signIn.status).toBe(503);
      expect(signIn.headers.get('retry-after')).toBe('5');
      expect(signIn.json()).toEqual({
        error: { code: 'SERVICE_UNAVAILABLE', message: expect.any(String) as string },
        message: expect.any(String) as string,
      });
      expect(signIn.text).not.toMatch(/SQLITE|ECONN|Knex|select|insert|5432|stack|at /i);
      const uploaded = ENGINE.ok
        ? await client.upload({ name: 'bees.png', data: await beePicture() })
        : null;
      if (uploaded) {
        expect(uploaded.status).toBe(503);
        expect(uploaded.json<{ error: { code: string } }>().error.code).toBe('SERVICE_UNAVAILABLE');
      }
      const list = await client.post('/api/get-uploaded-files-list/');
      if (kind === 'postgres') expect(list.status).toBe(503);
      // SQLite in WAL mode keeps serving reads while a writer holds the lock.
      else expect(list.status).toBe(200);
      // The worker's poll loop meets the outage (its first failed claim) before it ends.
      if (ENGINE.ok)
        await waitFor(
          'the worker to fail a claim',
          () =>
            Promise.resolve(
              logger.lines
                .slice(linesBeforeOutage)
                .some((l) => l.level === 'error' && /claiming a job failed/.test(l.msg)),
            ),
          60_000,
        );

      // --- back ---
      if (proxy) await proxy.open();
      else {
        await exec('ROLLBACK');
        sqliteLock?.close();
        sqliteLock = null;
      }
      const back = await waitFor(
        'sign-in to work again',
        async () => {
          const res = await other.post('/api/check-valid-user/', {
            email_address: userEmail,
            password: 'stress-horse-1',
          });
          return res.status === 200 ? res : null;
        },
        60_000,
      );
      expect(back.text).toBe('USER');
      expect((await client.post('/api/get-uploaded-files-list/')).status).toBe(200);
      // The refused upload left nothing behind, on disk or in the database.
      expect(leftovers()).toEqual([]);
      expect(
        Number(((await place.db('files').count('* as n').first()) as { n: number | string }).n),
      ).toBe(filesBefore);

      if (ENGINE.ok) {
        // The worker lived through it: it logged the failures, and still processes videos.
        expect(
          logger.lines.some((l) => l.level === 'error' && /claiming a job failed/.test(l.msg)),
        ).toBe(true);
        const video = await client.upload({ name: 'v.mp4', data: await beeVideo(4) });
        expect(video.status).toBe(201);
        const id = video.json<{ file: { id: number } }>().file.id;
        const detail = await waitFinished(client, id, 180_000);
        expect(detail.status).toBe('PROCESSED');
        const picture = await client.upload({ name: 'bees.png', data: await beePicture() });
        expect(picture.status).toBe(201);
        expect(picture.json<{ file: { status: string } }>().file.status).toBe('PROCESSED');
      }
    }, 300_000);

    it.skipIf(!ENGINE.ok)(
      'a job whose results cannot be written during the outage is finished afterwards',
      async () => {
        // The real engine, held once its analysis is done until the database is gone: warm, it
        // analyses this video in about a second, so cutting the database "while the job runs"
        // raced the job's own completion (and the failure the test waits for never came).
        const gate = holdAnalyses(await engineFor(server.app));
        setEngineFor(server.app, gate.engine);
        try {
          const client = await registerAndSignIn(server.url, email('db-outage-job'));
          const up = await client.upload({ name: 'v.mp4', data: await beeVideo(4) });
          expect(up.status).toBe(201);
          const fileId = up.json<{ file: { id: number } }>().file.id;
          await waitFor('the analysis to finish', () => Promise.resolve(gate.held > 0));
          expect((await jobOf(place, fileId))?.state).toBe('running');
          const seen = logger.lines.length;
          if (proxy) await proxy.cut();
          else {
            sqliteLock = new sqlite3.Database(path.join(place.dataDir, 'hivesight.sqlite'));
            await exec('BEGIN EXCLUSIVE');
          }
          gate.release();
          // Writing the results fails, and so does recording the failure.
          await waitFor(
            'the worker to report that it could not record the job',
            () =>
              Promise.resolve(
                logger.lines
                  .slice(seen)
                  .some((l) => l.level === 'error' && /recording a job failed/.test(l.msg)),
              ),
            60_000,
          ).catch((err: unknown) => {
            const said = logger.lines.slice(seen).map((l) => `${l.level}: ${l.msg}`);
            throw new Error(`${String(err)}; the server said:\n${said.join('\n')}`);
          });
          if (proxy) await proxy.open();
          else {
            await exec('ROLLBACK');
            sqliteLock?.close();
            sqliteLock = null;
          }
          const detail = await waitFinished(client, fileId, 240_000);
          await expectCompleteReport(client, detail, SAMPLED[4]);
          const job = await jobOf(place, fileId);
          expect(job?.state).toBe('done');
          expect(job?.attempts).toBe(2);
        } finally {
          gate.release();
          setEngineFor(server.app, gate.real);
        }
      },
      420_000,
    );
  });
});

/** Mounting needs root and a kernel that lets this container mount tmpfs. */
function canMountTmpfs(): string | null {
  if (process.platform !== 'linux') return 'not Linux';
  if (process.getuid?.() !== 0) return 'not running as root';
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hs-tmpfs-probe-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', dir], { stdio: 'pipe' });
    execFileSync('umount', [dir], { stdio: 'pipe' });
    return null;
  } catch (err) {
    return `mount -t tmpfs failed (${String(err).split('\n')[0]})`;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const NO_TMPFS = canMountTmpfs();
if (NO_TMPFS) console.warn(`[faults] disk-full test skipped: ${NO_TMPFS}`);

describe.skipIf(NO_TMPFS !== null)('the disk filling up while an upload streams', () => {
  const TMPFS_BYTES = 6 * 1024 * 1024;
  let dataDir: string;
  let mounted = false;
  let server: RunningServer;
  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hs-diskfull-'));
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${TMPFS_BYTES}`, 'tmpfs', dataDir]);
    mounted = true;
    server = await startServer(
      loadConfig({
        PORT: '0',
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        WORKER_CONCURRENCY: '0',
      }),
      { logger: recordingLogger(), worker: false, consoleDir: path.join(dataDir, 'no-console') },
    );
  });
  afterAll(async () => {
    await server?.stop();
    if (mounted) {
      try {
        execFileSync('umount', [dataDir]);
      } catch {
        execFileSync('umount', ['-l', dataDir]);
      }
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const freeBytes = () => {
    const s = fs.statfsSync(dataDir);
    return s.bavail * s.bsize;
  };

  it('refuses with 507 "Insufficient storage" and keeps nothing; later uploads work', async () => {
    const client = await registerAndSignIn(server.url, email('disk-full'));
    const freeBefore = freeBytes();
    // 8 MB: within the Free plan's 10 MB, more than the 6 MB disk holds.
    const big = new Uint8Array(8 * 1024 * 1024);
    for (let i = 0; i < big.length; i += 4096) big[i] = i % 251;
    const res = await client.upload({ name: 'huge.png', data: big });
    expect(res.status).toBe(507);
    const body = res.json<{ error: { code: string; message: string }; message: string }>();
    expect(body.error.code).toBe('INSUFFICIENT_STORAGE');
    expect(body.message).toMatch(/^Insufficient storage/);
    expect(res.text).not.toMatch(/ENOSPC|\/tmp|incoming/);

    for (const d of ['incoming', 'media', 'previews'])
      expect(fs.readdirSync(path.join(dataDir, d))).toEqual([]);
    expect(
      Number(((await server.app.db('files').count('* as n').first()) as { n: number | string }).n),
    ).toBe(0);
    // The space came back (the SQLite WAL may have grown a little meanwhile).
    expect(freeBytes()).toBeGreaterThan(freeBefore - 512 * 1024);

    // The server is fine afterwards: the session still works, and a picture that fits goes in.
    expect((await client.post('/api/get-uploaded-files-list/')).status).toBe(200);
    if (ENGINE.ok) {
      const ok = await client.upload({ name: 'bees.png', data: await beePicture() });
      expect(ok.status).toBe(201);
      expect(ok.json<{ file: { status: string } }>().file.status).toBe('PROCESSED');
    }
  }, 120_000);
});

const HANG_MARKER = 'HIVESIGHT_FAULT_HANG_ME';

describe.skipIf(!ENGINE.ok)('ffmpeg hanging on one file', () => {
  let place: DataPlace;
  let work: string;
  let serve: CliProcess | null = null;
  beforeAll(async () => {
    place = await makeDataPlace('sqlite');
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'hs-faults-hang-'));
  });
  afterAll(async () => {
    await serve?.kill9();
    await place.drop();
    fs.rmSync(work, { recursive: true, force: true });
  });

  it('times the job out, FAILS it with a readable reason and goes on to the next one', async () => {
    const realFfmpeg = resolveMediaTools().ffmpeg;
    // A stand-in ffmpeg: the real one, except that it never answers on a file with the marker
    // (exec: the hung process is the one the engine started, as with a real hang).
    const wrapper = path.join(work, 'ffmpeg');
    fs.writeFileSync(
      wrapper,
      [
        '#!/bin/sh',
        'for a in "$@"; do case "$a" in file:*) f="${a#file:}";; esac; done',
        `if [ -n "$f" ] && grep -q ${HANG_MARKER} "$f" 2>/dev/null; then exec sleep 3600; fi`,
        `exec "${realFfmpeg}" "$@"`,
        '',
      ].join('\n'),
      { mode: 0o755 },
    );
    const hangFile = path.join(work, 'hang.mp4');
    execFileSync(realFfmpeg, [
      '-hide_banner', '-loglevel', 'error', '-y',
      '-f', 'lavfi', '-i', 'testsrc=size=320x240:rate=10:duration=3',
      '-pix_fmt', 'yuv420p', '-metadata', `comment=${HANG_MARKER}`, hangFile,
    ]); // prettier-ignore
    const hangData = fs.readFileSync(hangFile);
    expect(hangData.includes(HANG_MARKER)).toBe(true);

    serve = await startCli('serve', {
      ...place.env,
      FFMPEG_PATH: wrapper,
      MEDIA_TIMEOUT_SECONDS: '3',
      JOB_MAX_ATTEMPTS: '2',
      WORKER_CONCURRENCY: '1',
    });
    const client = await registerAndSignIn(serve.url, email('hang'));
    const hung = await client.upload({ name: 'hang.mp4', data: hangData });
    expect(hung.status).toBe(201);
    const next = await client.upload({ name: 'fine.mp4', data: await beeVideo(4) });
    expect(next.status).toBe(201);
    const hungId = hung.json<{ file: { id: number } }>().file.id;
    const nextId = next.json<{ file: { id: number } }>().file.id;

    const failed = await waitFinished(client, hungId, 120_000);
    expect(failed.status).toBe('FAILED');
    // Users read the fixed sentence for a timeout; the log keeps ffmpeg's own words.
    expect(failed.status_reason).toMatch(/took too long and was stopped/);
    expect(failed.status_reason).not.toMatch(/undefined|\[object|Error:/);
    const job = await jobOf(place, hungId);
    expect(job?.state).toBe('failed');
    expect(job?.attempts).toBe(2);

    const done = await waitFinished(client, nextId, 120_000);
    expect(done.status).toBe('PROCESSED');
    // The hung ffmpeg was killed, not left behind.
    const sleeping = execFileSync('ps', ['-eo', 'ppid,args'], { encoding: 'utf8' })
      .split('\n')
      .filter((l) => l.trim().startsWith(String(serve?.child.pid)) && /sleep 3600/.test(l));
    expect(sleeping).toEqual([]);
    await serve.stop();
  }, 240_000);
});

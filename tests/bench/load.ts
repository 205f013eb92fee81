/**
 * Load script (issue 6, "Load"): `npm run load -- [options]`. Not a timed test: it prints
 * figures, and exits 1 only when something went WRONG (an error answer, or an upload that did
 * not end PROCESSED with a report), never because it was slow.
 *
 * One `hivesight serve` child (in-process worker) on a temp data folder, SQLite by default or a
 * throw-away PostgreSQL schema (`--db postgres`), plus `--workers N` extra `hivesight worker`
 * children. `--users` users are registered and signed in through the API; for `--seconds` each
 * polls its file list every second and uploads a bee picture every `--upload-every` seconds
 * (default 60: 100 users upload ~1.7 pictures/s)
 * (pictures are analysed in the request); `--videos` bee videos are queued at the start. Then it
 * waits for the queue to drain and checks every upload: PROCESSED, with frames and a report CSV.
 *
 *   npm run load                                   # 100 users, 60 s, 20 videos, SQLite
 *   npm run load -- --db postgres --workers 2      # the same on PostgreSQL, 2 extra workers
 *   npm run load -- --seconds 10 --users 20 --videos 3
 *
 * Options: --seconds 60 --users 100 --videos 20 --video-seconds 10 --upload-every 60
 * --db sqlite|postgres --workers 0 --serve-worker 1 (0: the serve runs no analysis worker) --drain-seconds 900 --json FILE (default
 * bench-out/load-<db>-<workers>w.json). The client runs on the same machine as the server(s), so
 * the figures include its own CPU use.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBeeScene, writeBeeImage, writeBeeVideo } from '../../fixtures/index.ts';
import {
  HttpClient,
  killAll,
  makeDataPlace,
  postgresAnswers,
  startCli,
  STRESS_PASSWORD,
} from '../support/processes.ts';
import type { CliProcess, DbKind } from '../support/processes.ts';

interface Options {
  seconds: number;
  users: number;
  videos: number;
  videoSeconds: number;
  uploadEvery: number;
  db: DbKind;
  workers: number;
  serveWorker: number;
  drainSeconds: number;
  json: string;
}

const DB_KINDS: DbKind[] = ['sqlite', 'postgres'];

function parseOptions(argv: string[]): Options {
  const raw = new Map<string, string>();
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i] ?? '';
    if (!arg.startsWith('--')) throw new Error(`unexpected argument ${arg}`);
    const eq = arg.indexOf('=');
    if (eq > 0) raw.set(arg.slice(2, eq), arg.slice(eq + 1));
    else {
      raw.set(arg.slice(2), argv[i + 1] ?? '');
      i += 1;
    }
  }
  const num = (name: string, fallback: number, min: number): number => {
    const v = raw.get(name);
    raw.delete(name);
    if (v === undefined) return fallback;
    const n = Number(v);
    if (!Number.isFinite(n) || n < min) throw new Error(`--${name} must be a number >= ${min}`);
    return n;
  };
  const dbRaw = raw.get('db') ?? 'sqlite';
  raw.delete('db');
  const db = DB_KINDS.find((k) => k === dbRaw);
  if (!db) throw new Error('--db must be sqlite or postgres');
  const opts = {
    seconds: num('seconds', 60, 1),
    users: Math.round(num('users', 100, 1)),
    videos: Math.round(num('videos', 20, 0)),
    videoSeconds: num('video-seconds', 10, 1),
    uploadEvery: num('upload-every', 60, 1),
    db,
    workers: Math.round(num('workers', 0, 0)),
    serveWorker: Math.round(num('serve-worker', 1, 0)),
    drainSeconds: num('drain-seconds', 900, 10),
  };
  const json =
    raw.get('json') ?? path.resolve('bench-out', `load-${opts.db}-${opts.workers}w.json`);
  raw.delete('json');
  if (raw.size > 0) throw new Error(`unknown option(s): ${[...raw.keys()].join(', ')}`);
  return { ...opts, json };
}

/** Latency samples and errors per route. */
class Stats {
  readonly samples = new Map<string, number[]>();
  readonly errors = new Map<string, Map<string, number>>();
  readonly errorExamples: string[] = [];

  ok(route: string, ms: number): void {
    let list = this.samples.get(route);
    if (!list) this.samples.set(route, (list = []));
    list.push(ms);
  }

  error(route: string, what: string, detail: string): void {
    let m = this.errors.get(route);
    if (!m) this.errors.set(route, (m = new Map<string, number>()));
    m.set(what, (m.get(what) ?? 0) + 1);
    if (this.errorExamples.length < 20) this.errorExamples.push(`${route} ${what}: ${detail}`);
  }

  get errorCount(): number {
    let n = 0;
    for (const m of this.errors.values()) for (const c of m.values()) n += c;
    return n;
  }
}

function quantile(values: number[], q: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? NaN;
}

const round = (n: number, d = 1) => Math.round(n * 10 ** d) / 10 ** d;

/** Times one call; a non-2xx answer or a network error counts as an error of that route. */
async function timed<T extends { status: number; text: string }>(
  stats: Stats,
  route: string,
  call: () => Promise<T>,
): Promise<T | null> {
  const started = performance.now();
  try {
    const res = await call();
    const ms = performance.now() - started;
    if (res.status >= 200 && res.status < 300) {
      stats.ok(route, ms);
      return res;
    }
    stats.error(route, `HTTP ${res.status}`, res.text.slice(0, 200));
    return null;
  } catch (err) {
    stats.error(route, 'network', String(err).slice(0, 200));
    return null;
  }
}

interface Upload {
  id: number;
  kind: 'image' | 'video';
  client: HttpClient;
  uploadedAt: number;
}

interface Detail {
  status: string;
  status_reason: string | null;
  processed_at: string | null;
  frames: unknown[];
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function main(): Promise<number> {
  const opts = parseOptions(process.argv.slice(2));
  if (opts.db === 'postgres' && !(await postgresAnswers())) {
    console.error('PostgreSQL does not answer (TEST_DATABASE_URL or 127.0.0.1:5432/test).');
    return 2;
  }
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'hs-load-media-'));
  const place = await makeDataPlace(opts.db);
  const procs: CliProcess[] = [];
  const env = {
    ...place.env,
    RATE_LIMIT_MAX_PER_IP: '1000000',
    RATE_LIMIT_MAX_PER_EMAIL: '1000000',
    // Every user registers from this one IP, all within a minute.
    REGISTER_RATE_LIMIT_MAX_PER_IP: '1000000',
    REGISTER_RATE_LIMIT_SLOW_AFTER_ALL_IPS: '1000000',
    WORKER_CONCURRENCY: '1',
  };
  const serveEnv = { ...env, WORKER_CONCURRENCY: String(opts.serveWorker) };
  try {
    console.log(
      `load: ${opts.users} users, ${opts.seconds} s, ${opts.videos} videos of ${opts.videoSeconds} s, ` +
        `a picture per user every ${opts.uploadEvery} s, ${opts.db}, serve (worker ${opts.serveWorker ? 'in-process' : 'off'}) + ${opts.workers} extra worker(s); ` +
        `${os.cpus().length} CPU cores, load average ${os
          .loadavg()
          .map((l) => l.toFixed(1))
          .join(' ')}`,
    );
    const pictures = await Promise.all(
      [1, 2, 3, 4, 5].map(async (seed) => {
        const file = path.join(work, `bees-${seed}.png`);
        await writeBeeImage(file, randomBeeScene({ width: 320, height: 240, count: 6, seed }));
        return fs.readFileSync(file);
      }),
    );
    const clips: Buffer[] = [];
    for (const seed of [21, 22, 23]) {
      const file = path.join(work, `bees-${seed}.mp4`);
      await writeBeeVideo(file, {
        width: 320,
        height: 240,
        count: 6,
        seconds: opts.videoSeconds,
        fps: 10,
        seed,
      });
      clips.push(fs.readFileSync(file));
    }

    const serve = await startCli('serve', serveEnv, { name: 'serve' });
    procs.push(serve);
    // Workers after the serve has migrated the database (concurrent migrations lock each other out).
    for (let i = 0; i < opts.workers; i += 1)
      procs.push(await startCli('worker', env, { name: `worker-${i + 1}` }));

    const stats = new Stats();
    const tag = Date.now().toString(36);
    const clients: HttpClient[] = [];
    let next = 0;
    const signUp = async (): Promise<void> => {
      while (next < opts.users) {
        const i = next;
        next += 1;
        const email = `load-${tag}-${i}@example.com`;
        const client = new HttpClient(serve.url);
        await timed(stats, 'POST register-user', () =>
          client.post('/api/register-user/', {
            name: `Load User ${i}`,
            email,
            password: STRESS_PASSWORD,
            confirmPassword: STRESS_PASSWORD,
            locations: ['Apiary North'],
          }),
        );
        await timed(stats, 'POST check-valid-user (sign-in)', () =>
          client.post('/api/check-valid-user/', {
            email_address: email,
            password: STRESS_PASSWORD,
          }),
        );
        clients.push(client);
      }
    };
    const signUpStarted = performance.now();
    await Promise.all(Array.from({ length: 10 }, signUp));
    console.log(
      `${clients.length} users registered and signed in in ${round((performance.now() - signUpStarted) / 1000)} s`,
    );

    const uploads: Upload[] = [];
    const upload = async (client: HttpClient, kind: 'image' | 'video', n: number) => {
      const data = kind === 'image' ? pictures[n % pictures.length]! : clips[n % clips.length]!;
      const at = Date.now();
      const res = await timed(stats, kind === 'image' ? 'upload picture' : 'upload video', () =>
        client.upload({ name: kind === 'image' ? `hive-${n}.png` : `hive-${n}.mp4`, data }),
      );
      if (res) {
        const id = res.json<{ file: { id: number } }>().file.id;
        uploads.push({ id, kind, client, uploadedAt: at });
      }
    };

    const loadStarted = Date.now();
    const loadEnds = loadStarted + opts.seconds * 1000;
    // The videos are queued at the start, from different users.
    const videoUploads = Promise.all(
      Array.from({ length: opts.videos }, (_, i) =>
        upload(clients[i % clients.length]!, 'video', i),
      ),
    );
    let pictureCount = 0;
    // Uploads run beside the polling (as in the console, the list keeps refreshing meanwhile).
    const pictureUploads: Array<Promise<void>> = [];
    const user = async (client: HttpClient, index: number): Promise<void> => {
      // Spread the users over the first second, and their uploads over the upload period.
      await sleep(Math.random() * 1000);
      let nextUpload = Date.now() + Math.random() * opts.uploadEvery * 1000;
      while (Date.now() < loadEnds) {
        const tick = Date.now();
        await timed(stats, 'POST get-uploaded-files-list', () =>
          client.post('/api/get-uploaded-files-list/'),
        );
        if (Date.now() >= nextUpload && Date.now() < loadEnds) {
          nextUpload += opts.uploadEvery * 1000;
          pictureCount += 1;
          pictureUploads.push(upload(client, 'image', index + pictureCount));
        }
        await sleep(Math.max(0, 1000 - (Date.now() - tick)));
      }
    };
    await Promise.all(clients.map((c, i) => user(c, i)));
    await Promise.all([videoUploads, ...pictureUploads]);
    const loadSeconds = (Date.now() - loadStarted) / 1000;

    // Drain: every video must end PROCESSED (or FAILED, which counts against the run).
    const videos = uploads.filter((u) => u.kind === 'video');
    const details = new Map<number, Detail>();
    const drainEnds = Date.now() + opts.drainSeconds * 1000;
    for (;;) {
      for (const u of uploads) {
        if (details.has(u.id)) continue;
        const res = await u.client.get(`/api/files/${u.id}`).catch(() => null);
        if (res?.status !== 200) continue;
        const d = res.json<Detail>();
        if (d.status === 'PROCESSED' || d.status === 'FAILED') details.set(u.id, d);
      }
      if (details.size === uploads.length || Date.now() > drainEnds) break;
      await sleep(2000);
    }

    // Every upload: PROCESSED, frames, and a report CSV with one row per frame.
    const problems: string[] = [];
    for (const u of uploads) {
      const d = details.get(u.id);
      if (!d) {
        problems.push(`${u.kind} ${u.id}: not finished after the drain time`);
        continue;
      }
      if (d.status !== 'PROCESSED') {
        problems.push(`${u.kind} ${u.id}: ${d.status} (${d.status_reason ?? ''})`);
        continue;
      }
      const csv = await u.client.get(`/api/files/${u.id}/report.csv`).catch(() => null);
      const rows = csv?.status === 200 ? csv.text.trim().split('\n').length - 1 : -1;
      if (d.frames.length === 0 || rows !== d.frames.length)
        problems.push(`${u.kind} ${u.id}: report has ${rows} rows for ${d.frames.length} frames`);
    }

    // Videos per minute: from the first video upload to the last video processed.
    const processedTimes = videos
      .map((v) => details.get(v.id)?.processed_at)
      .filter((t): t is string => typeof t === 'string')
      .map((t) => Date.parse(t));
    const firstVideo = Math.min(...videos.map((v) => v.uploadedAt));
    const videoMinutes =
      processedTimes.length > 0 ? (Math.max(...processedTimes) - firstVideo) / 60_000 : NaN;
    const videosPerMinute = processedTimes.length / videoMinutes;

    const routes = [...stats.samples.keys(), ...stats.errors.keys()].filter(
      (r, i, all) => all.indexOf(r) === i,
    );
    const table = routes.map((route) => {
      const s = stats.samples.get(route) ?? [];
      const errs = [...(stats.errors.get(route) ?? new Map<string, number>()).values()].reduce(
        (a, b) => a + b,
        0,
      );
      return {
        route,
        requests: s.length + errs,
        errors: errs,
        p50_ms: round(quantile(s, 0.5)),
        p99_ms: round(quantile(s, 0.99)),
        max_ms: round(s.length ? Math.max(...s) : NaN),
      };
    });
    const loadRequests = [...stats.samples.entries()]
      .filter(([r]) => r === 'POST get-uploaded-files-list' || r.startsWith('upload'))
      .reduce((n, [, s]) => n + s.length, 0);
    const summary = {
      options: { ...opts, json: undefined },
      machine: {
        cpus: os.cpus().length,
        cpuModel: os.cpus()[0]?.model ?? '',
        loadAverageAtEnd: os.loadavg().map((l) => round(l, 2)),
      },
      loadSeconds: round(loadSeconds),
      requestsPerSecond: round(loadRequests / loadSeconds),
      routes: table,
      errors: stats.errorCount,
      errorExamples: stats.errorExamples,
      uploads: {
        pictures: uploads.length - videos.length,
        videos: videos.length,
        processed: [...details.values()].filter((d) => d.status === 'PROCESSED').length,
      },
      videosPerMinute: round(videosPerMinute, 2),
      videoDrainMinutes: round(videoMinutes, 2),
      problems,
    };

    console.log('');
    console.log(
      ['route'.padEnd(34), 'requests', 'errors', 'p50 ms', 'p99 ms', 'max ms']
        .map((h, i) => (i === 0 ? h : h.padStart(9)))
        .join(''),
    );
    for (const r of table)
      console.log(
        r.route.padEnd(34) +
          [r.requests, r.errors, r.p50_ms, r.p99_ms, r.max_ms]
            .map((v) => String(v).padStart(9))
            .join(''),
      );
    console.log('');
    console.log(
      `load phase: ${summary.loadSeconds} s, ${summary.requestsPerSecond} requests/s (lists + uploads)`,
    );
    console.log(
      `uploads: ${summary.uploads.pictures} pictures + ${summary.uploads.videos} videos, ` +
        `${summary.uploads.processed} PROCESSED with a report; errors: ${summary.errors}`,
    );
    console.log(
      `videos: ${processedTimes.length} processed in ${summary.videoDrainMinutes} min from the first ` +
        `upload = ${summary.videosPerMinute} videos/min (serve + ${opts.workers} worker(s))`,
    );
    for (const e of stats.errorExamples) console.log(`error: ${e}`);
    for (const p of problems) console.log(`problem: ${p}`);
    fs.mkdirSync(path.dirname(opts.json), { recursive: true });
    fs.writeFileSync(opts.json, JSON.stringify(summary, null, 2) + '\n');
    console.log(`summary written to ${opts.json}`);
    const expectedUploads = opts.videos + pictureCount;
    if (uploads.length !== expectedUploads)
      console.log(`problem: ${expectedUploads - uploads.length} upload(s) were refused`);
    return stats.errorCount === 0 && problems.length === 0 && uploads.length === expectedUploads
      ? 0
      : 1;
  } finally {
    await Promise.all(procs.map((p) => p.stop(10_000)));
    await killAll();
    await place.drop();
    fs.rmSync(work, { recursive: true, force: true });
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);

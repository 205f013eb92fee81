/**
 * Server speed and memory on this machine (`npm run bench:server`).
 *
 * Starts the real server as a child process (`node bin/hivesight.mjs serve`, temp DATA_DIR, a
 * free port, worker off so no analysis competes), seeds 10,000 file rows straight through knex
 * (one beekeeper's files plus files across other users: descriptions, locations, dates,
 * statuses, stored results), signs in over HTTP, then:
 * - streams a ~50 MB real mp4 (made with ffmpeg) to POST /api/upload_docs/ while sampling the
 *   server process's VmRSS from /proc: memory growth target < 64 MB;
 * - fires --concurrency (50) closed-loop clients at POST /api/get-uploaded-files-list/ (the
 *   beekeeper) and POST /api/search-results-files (an admin, a mix of realistic searches) for
 *   --requests each: rps, p50, p95, p99; target p99 < 50 ms.
 *
 *   node bin/run-ts.mjs tests/bench/server-bench.ts [--db sqlite|postgres] [--files 10000]
 *     [--user-files 200] [--users 100] [--concurrency 50] [--requests 3000] [--upload-mb 50]
 *     [--client-rps 0] [--warmup 1000] [--no-upload] [--routes me,list,search] [--keep]
 *
 * --client-rps N paces each client at N requests/s (offered load N x concurrency) instead of the
 * default closed loop, where each client sends its next request as soon as it has the answer
 * (so latency = concurrency / throughput once the server is saturated).
 *
 * PostgreSQL: a fresh database on DATABASE_URL's server (default postgres://postgres@127.0.0.1:
 * 5432/test), dropped afterwards (unless --keep, which also keeps the temp folder).
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Readable } from 'node:stream';
import knexFactory from 'knex';
import type { Knex } from 'knex';
import { createDb } from '../../server/db.ts';
import { systemClock } from '../../server/clock.ts';
import { createUser, grantProduct } from '../../server/users/users-repository.ts';
import { maxFileSize, RESEARCHER } from '../../server/users/plans.ts';
import { resolveMediaTools } from '../../engine/media/tools.ts';
import { seededRandom } from '../../engine/random.ts';
import {
  intArg,
  machineFacts,
  mib,
  parseArgs,
  printTable,
  procCpuMs,
  processesCpuMs,
  procRss,
  quantile,
  round,
  writeResults,
} from './bench-support.ts';

const args = parseArgs();
const DB_KIND = args.get('db') === 'postgres' ? 'postgres' : 'sqlite';
if (args.has('db') && !['sqlite', 'postgres'].includes(args.get('db')!)) {
  throw new Error('--db must be sqlite or postgres');
}
const TOTAL_FILES = intArg(args, 'files', 10_000);
const USER_FILES = Math.min(TOTAL_FILES, intArg(args, 'user-files', 200));
const OTHER_USERS = Math.max(1, intArg(args, 'users', 100) - 1);
const CONCURRENCY = Math.max(1, intArg(args, 'concurrency', 50));
const REQUESTS = Math.max(CONCURRENCY, intArg(args, 'requests', 3000));
/** Unmeasured requests per route before the measured ones. */
const WARMUP = intArg(args, 'warmup', 1000);
const UPLOAD_MB = intArg(args, 'upload-mb', 50);
const DO_UPLOAD = !args.has('no-upload') && UPLOAD_MB > 0;
/** Requests per second per client (0: closed loop, each client sends as soon as answered). */
const CLIENT_RPS = Number(args.get('client-rps') ?? 0);
if (!(CLIENT_RPS >= 0)) throw new Error('--client-rps must be a number >= 0');
/** Which load phases run: me (the reference), list, search. */
const ROUTES = new Set((args.get('routes') ?? 'me,list,search').split(','));
const PG_BASE = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const PASSWORD = 'bench-password-1';
const TARGET_P99_MS = 50;
const TARGET_GROWTH_MB = 64;
/** The bench's "now": the seeded year of files ends here. */
const NOW = new Date();

// ---------------------------------------------------------------------------------------------
// Seed data

const LOCATIONS = [
  'Apiary North',
  'Apiary South',
  'Orchard Row 3',
  'Hillside Meadow',
  'Riverside Yard',
  'Warehouse 4',
  'Lavender Field',
  'Clover Paddock',
  'Rooftop Garden',
  'Forest Edge',
];
const OPENINGS = [
  'Morning flight at hive',
  'Afternoon traffic at hive',
  'Evening return at hive',
  'Entrance check on hive',
  'Landing board of hive',
  'Swarm watch at hive',
  'Robbing check at hive',
  'Orientation flights at hive',
];
const NOTES = [
  'heavy pollen traffic, mostly yellow loads',
  'some drones on the landing board',
  'a wasp seen near the entrance',
  'quiet after the rain',
  'bees fanning at the entrance, hot day',
  'possible hornet hawking in front of the hive',
  'new queen introduced last week',
  'varroa treatment started two days ago',
  'strong colony, lots of foragers',
  'weak colony, few foragers, checking for disease',
  'orange pollen from the clover field',
  'dead bees below the entrance, please check',
];
const STATUSES: Array<[string, number]> = [
  ['PROCESSED', 0.8],
  ['FAILED', 0.05],
  ['QUEUED', 0.09],
  ['PROCESSING', 0.03],
  ['UPLOADED', 0.03],
];

function pick<T>(random: () => number, list: readonly T[]): T {
  return list[Math.floor(random() * list.length)]!;
}

function pickStatus(random: () => number): string {
  let r = random();
  for (const [status, share] of STATUSES) {
    if (r < share) return status;
    r -= share;
  }
  return 'PROCESSED';
}

function fileRow(random: () => number, userId: number, locations: string[], n: number) {
  const created = new Date(NOW.getTime() - random() * 365 * 86_400_000);
  const video = random() < 0.85;
  const format = video ? (random() < 0.9 ? 'mp4' : 'avi') : random() < 0.7 ? 'jpeg' : 'png';
  const ext = format === 'jpeg' ? 'jpg' : format;
  const hive = 1 + Math.floor(random() * 12);
  const status = video ? pickStatus(random) : random() < 0.97 ? 'PROCESSED' : 'FAILED';
  const processed = status === 'PROCESSED';
  const statusTime = new Date(created.getTime() + (processed ? 30_000 + random() * 600_000 : 0));
  const old = NOW.getTime() - created.getTime() > 86_400_000;
  const durationS = video ? 5 + Math.round(random() * 10) : 0;
  const framesN = video ? durationS * 5 : 1;
  const counts = () => {
    const bee = Math.round(random() * 40);
    return { bee, pollen: Math.round(bee * random() * 0.3), drone: Math.round(random() * 3) };
  };
  const frames = processed
    ? Array.from({ length: framesN }, (_, i) => ({
        index: i,
        timeS: i / 5,
        counts: { ...counts(), wasp: null, hornet: 0 },
        beeCoveragePct: round(random() * 12, 2),
      }))
    : null;
  const stamp = created.toISOString().slice(0, 16).replace(/[-:T]/g, '');
  return {
    user_id: userId,
    original_name: `hive${hive}-${stamp}.${ext}`,
    stored_name: `${crypto.randomBytes(12).toString('hex')}-${n}.${ext}`,
    kind: video ? 'video' : 'image',
    format,
    size_bytes: Math.round((video ? 2e6 + random() * 8e6 : 2e5 + random() * 2e6) | 0),
    description: `${pick(random, OPENINGS)} ${hive}: ${pick(random, NOTES)}${random() < 0.4 ? `; ${pick(random, NOTES)}` : ''}.`,
    location: pick(random, locations),
    status,
    status_reason: status === 'FAILED' ? 'The file is damaged and could not be decoded.' : null,
    status_time: statusTime.toISOString(),
    created_at: created.toISOString(),
    processed_at: processed ? statusTime.toISOString() : null,
    media_deleted_at: processed && old ? statusTime.toISOString() : null,
    counts_json: processed ? JSON.stringify({ ...counts(), wasp: null, hornet: 0 }) : null,
    summary_json: processed
      ? JSON.stringify({
          durationS,
          width: 1920,
          height: 1080,
          framesAnalysed: framesN,
          sampleFps: video ? 5 : 0,
          zoom: 1,
          beeCoveragePct: round(random() * 10, 2),
          model: { name: 'hivesight-detector', version: '0.1.0', classes: ['bee', 'pollen'] },
          timing: { decodeMs: 900, inferenceMs: 2100, trackingMs: 20, totalMs: 3100 },
          analysedAt: statusTime.toISOString(),
        })
      : null,
    frames_json: frames ? JSON.stringify(frames) : null,
    preview_name: processed ? `${crypto.randomBytes(12).toString('hex')}.jpg` : null,
  };
}

interface Seeded {
  userEmail: string;
  adminEmail: string;
  userLocations: string[];
  seedS: number;
}

async function seed(db: Knex): Promise<Seeded> {
  const t0 = performance.now();
  const random = seededRandom(2026);
  const userEmail = 'beekeeper@bench.example';
  const adminEmail = 'admin@bench.example';
  const userLocations = LOCATIONS.slice(0, 4);
  const user = await createUser(db, systemClock, {
    email: userEmail,
    name: 'Bench Beekeeper',
    password: PASSWORD,
    locations: userLocations,
  });
  await grantProduct(db, user.id, RESEARCHER, '2000-01-01', '2999-12-31');
  await createUser(db, systemClock, {
    email: adminEmail,
    name: 'Bench Admin',
    password: PASSWORD,
    role: 'ADMIN',
  });
  // Other owners never sign in: a placeholder hash keeps seeding fast.
  const owners: Array<{ id: number; locations: string[] }> = [];
  for (let i = 0; i < OTHER_USERS; i += 1) {
    const [row] = await db('users')
      .insert({
        email: `keeper${i}@bench.example`,
        name: `Keeper ${i}`,
        password_hash: 'scrypt$16384$8$1$AAAA$AAAA',
        role: 'USER',
        created_at: NOW.toISOString(),
      })
      .returning<Array<{ id: number } | number>>('id');
    const id = Number(typeof row === 'object' ? row.id : row);
    const locations = [pick(random, LOCATIONS), pick(random, LOCATIONS)];
    owners.push({ id, locations: [...new Set(locations)] });
  }
  const rows: Array<ReturnType<typeof fileRow>> = [];
  for (let n = 0; n < TOTAL_FILES; n += 1) {
    const owner = n < USER_FILES ? { id: user.id, locations: userLocations } : pick(random, owners);
    rows.push(fileRow(random, owner.id, owner.locations, n));
  }
  await db.transaction(async (trx) => {
    for (let i = 0; i < rows.length; i += 500) await trx('files').insert(rows.slice(i, i + 500));
  });
  // PostgreSQL's autovacuum would analyse the new rows soon, and vacuum them (PostgreSQL 13+
  // vacuums after inserts), which lets the search read its covering index alone (migration
  // 0011); SQLite never does either by itself.
  if (DB_KIND === 'postgres') await db.raw('VACUUM ANALYZE');
  return { userEmail, adminEmail, userLocations, seedS: (performance.now() - t0) / 1000 };
}

// ---------------------------------------------------------------------------------------------
// HTTP

const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY + 4 });

interface Reply {
  status: number;
  body: Buffer;
  headers: http.IncomingHttpHeaders;
}

function request(
  base: string,
  method: string,
  urlPath: string,
  opts: {
    cookie?: string;
    json?: unknown;
    body?: Readable;
    headers?: Record<string, string | number>;
  } = {},
): Promise<Reply> {
  const headers: Record<string, string | number> = { ...opts.headers };
  if (opts.cookie) headers.cookie = opts.cookie;
  let payload: Buffer | undefined;
  if (opts.json !== undefined) {
    payload = Buffer.from(JSON.stringify(opts.json));
    headers['content-type'] = 'application/json';
    headers['content-length'] = payload.length;
  }
  return new Promise((resolve, reject) => {
    const req = http.request(base + urlPath, { method, headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks), headers: res.headers }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    if (opts.body) opts.body.pipe(req);
    else req.end(payload);
  });
}

async function signIn(base: string, email: string): Promise<string> {
  const res = await request(base, 'POST', '/api/check-valid-user/', {
    json: { email_address: email, password: PASSWORD },
  });
  const cookie = (res.headers['set-cookie'] ?? []).map((c) => c.split(';')[0]).join('; ');
  if (res.status !== 200 || !cookie) throw new Error(`sign-in failed: ${res.status}`);
  return cookie;
}

interface LoadResult {
  name: string;
  requests: number;
  concurrency: number;
  errors: number;
  seconds: number;
  rps: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  avgRows: number;
  avgKiB: number;
  /** Server process CPU (user + system, all its threads) per request, ms. */
  serverCpuMsPerRequest: number | null;
  /** This (client) process's CPU per request, ms: it shares the machine with the server. */
  clientCpuMsPerRequest: number;
  /**
   * PostgreSQL's CPU per request, ms, when it runs on this machine (every `postgres` process);
   * null for SQLite, whose work is in the server's figure.
   */
  databaseCpuMsPerRequest: number | null;
}

/** `total` requests from `concurrency` closed-loop clients; `make(i)` gives request i's body. */
async function load(
  name: string,
  pid: number,
  base: string,
  urlPath: string,
  cookie: string,
  make: ((i: number) => unknown) | null,
  total: number,
): Promise<LoadResult> {
  const method = make ? 'POST' : 'GET';
  const send = (i: number) =>
    request(base, method, urlPath, make ? { cookie, json: make(i) } : { cookie });
  // Warm-up, not measured: a closed loop of WARMUP requests, so the figures are those of a
  // server that has been running (JIT-compiled handlers, open connections, warm page cache)
  // rather than its first second. With 50 clients and 3,000 requests, the cold start was a
  // third of the measured window.
  let warm = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (warm < WARMUP) await send(warm++);
    }),
  );
  const latencies: number[] = [];
  let errors = 0;
  let rows = 0;
  let parsed = 0;
  let bytes = 0;
  let next = 0;
  const cpu0 = procCpuMs(pid);
  const db0 = databaseCpuMs();
  const client0 = process.cpuUsage();
  const started = performance.now();
  const worker = async (w: number): Promise<void> => {
    // Paced clients (--client-rps) start spread over one interval, then keep their schedule;
    // a client that falls behind sends at once (then it is a closed loop again).
    const interval = CLIENT_RPS > 0 ? 1000 / CLIENT_RPS : 0;
    let due = performance.now() + (interval * w) / CONCURRENCY;
    while (next < total) {
      if (interval > 0) {
        const wait = due - performance.now();
        if (wait > 0) await new Promise((r) => setTimeout(r, wait));
        due += interval;
        if (next >= total) break;
      }
      const i = next;
      next += 1;
      const t0 = performance.now();
      const res = await send(i);
      latencies.push(performance.now() - t0);
      if (res.status !== 200) {
        errors += 1;
        continue;
      }
      bytes += res.body.length;
      // Every answer must be JSON, but only every 7th (prime to the 6 search shapes) is parsed
      // for its row count: on this 2-core machine the client's parsing competes with the
      // server it measures.
      if (i % 7 === 0) {
        const answer = JSON.parse(res.body.toString('utf8')) as unknown;
        rows += Array.isArray(answer) ? answer.length : 1;
        parsed += 1;
      } else if (res.body[0] !== 0x5b && res.body[0] !== 0x7b) {
        errors += 1;
      }
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, (_, w) => worker(w)));
  const seconds = (performance.now() - started) / 1000;
  const cpu1 = procCpuMs(pid);
  const db1 = databaseCpuMs();
  const client = process.cpuUsage(client0);
  const ok = total - errors;
  return {
    name,
    requests: total,
    concurrency: CONCURRENCY,
    errors,
    seconds,
    rps: total / seconds,
    p50: quantile(latencies, 0.5),
    p95: quantile(latencies, 0.95),
    p99: quantile(latencies, 0.99),
    max: Math.max(...latencies),
    avgRows: parsed > 0 ? rows / parsed : 0,
    avgKiB: ok > 0 ? bytes / ok / 1024 : 0,
    serverCpuMsPerRequest: cpu0 !== null && cpu1 !== null ? (cpu1 - cpu0) / total : null,
    clientCpuMsPerRequest: (client.user + client.system) / 1000 / total,
    databaseCpuMsPerRequest: db0 !== null && db1 !== null ? (db1 - db0) / total : null,
  };
}

/** PostgreSQL's CPU so far when it runs here (DATABASE_URL on this machine), else null. */
function databaseCpuMs(): number | null {
  if (DB_KIND !== 'postgres') return null;
  const host = new URL(PG_BASE).hostname;
  return ['127.0.0.1', 'localhost', '::1', '[::1]', ''].includes(host)
    ? processesCpuMs('postgres')
    : null;
}

/** Realistic admin searches: a month, a quarter, a week, with and without keywords/location. */
function searchBody(i: number): Record<string, string> {
  const day = (daysAgo: number) =>
    new Date(NOW.getTime() - daysAgo * 86_400_000).toISOString().slice(0, 10);
  const shapes: Array<Record<string, string>> = [
    { start_date: day(30), end_date: day(-1), file_description: '', location: '' },
    { start_date: day(90), end_date: day(-1), file_description: 'pollen', location: '' },
    { start_date: day(7), end_date: day(-1), file_description: '', location: 'Apiary' },
    { start_date: day(365), end_date: day(-1), file_description: 'hornet', location: 'North' },
    { start_date: day(60), end_date: day(30), file_description: 'drones', location: '' },
    { start_date: day(180), end_date: day(-1), file_description: 'hive 3', location: 'Orchard' },
  ];
  return shapes[i % shapes.length]!;
}

// ---------------------------------------------------------------------------------------------
// Upload

/**
 * A real mp4 of about `mb` MB, at most `maxBytes` (the plan's limit): noisy testsrc2 at a high
 * bitrate, cut by ffmpeg's -fs (which can overshoot by a few percent, so it is tried again
 * smaller when needed).
 */
async function makeBigVideo(dir: string, mb: number, maxBytes: number): Promise<string> {
  const file = path.join(dir, `upload-${mb}mb.mp4`);
  let limit = Math.min(Math.floor(mb * 1e6), maxBytes);
  for (let attempt = 0; attempt < 4; attempt += 1) {
    await encodeVideo(file, limit);
    const size = fs.statSync(file).size;
    if (size <= maxBytes) return file;
    limit = Math.floor(limit * (maxBytes / size) * 0.99);
  }
  throw new Error(`could not make a video under ${maxBytes} bytes`);
}

async function encodeVideo(file: string, bytes: number): Promise<void> {
  const bitrate = 40; // Mbit/s
  const seconds = Math.ceil((bytes * 8) / (bitrate * 1e6)) + 3;
  const args = [
    '-hide_banner', '-loglevel', 'error', '-y',
    '-f', 'lavfi', '-i', `testsrc2=size=1280x720:rate=30:duration=${seconds}`,
    '-vf', 'noise=alls=30:allf=t',
    '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p',
    '-b:v', `${bitrate}M`, '-maxrate', `${bitrate}M`, '-bufsize', `${bitrate}M`,
    '-fs', String(bytes),
    file,
  ]; // prettier-ignore
  await run(resolveMediaTools().ffmpeg, args);
}

function run(bin: string, argv: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, argv, { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve() : reject(new Error(`${bin} failed (${code}): ${stderr}`)),
    );
  });
}

interface UploadResult {
  bytes: number;
  status: number;
  seconds: number;
  mbPerS: number;
  baselineRss: number;
  peakRss: number;
  growth: number;
  samples: number;
}

async function upload(
  base: string,
  cookie: string,
  pid: number,
  file: string,
  location: string,
): Promise<UploadResult> {
  const size = fs.statSync(file).size;
  const boundary = `----hivesight-bench-${crypto.randomBytes(8).toString('hex')}`;
  const field = (name: string, value: string) =>
    `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
  const head = Buffer.from(
    field('file_description', 'Bench upload: morning flight at hive 2, heavy pollen traffic.') +
      field('location', location) +
      `--${boundary}\r\nContent-Disposition: form-data; name="file_data"; filename="${path.basename(file)}"\r\n` +
      'Content-Type: video/mp4\r\n\r\n',
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  async function* body(): AsyncGenerator<Buffer> {
    yield head;
    for await (const chunk of fs.createReadStream(file, { highWaterMark: 256 * 1024 })) {
      yield chunk as Buffer;
    }
    yield tail;
  }

  // Let the server settle, then sample its RSS every 10 ms while the upload streams.
  await new Promise((r) => setTimeout(r, 1000));
  const baselineRss = procRss(pid) ?? 0;
  let peakRss = baselineRss;
  let samples = 0;
  const timer = setInterval(() => {
    const rss = procRss(pid);
    samples += 1;
    if (rss !== null && rss > peakRss) peakRss = rss;
  }, 10);
  const t0 = performance.now();
  try {
    const res = await request(base, 'POST', '/api/upload_docs/', {
      cookie,
      body: Readable.from(body()),
      headers: {
        'content-type': `multipart/form-data; boundary=${boundary}`,
        'content-length': head.length + size + tail.length,
      },
    });
    const seconds = (performance.now() - t0) / 1000;
    // A last look, after the answer (probe, move, insert).
    await new Promise((r) => setTimeout(r, 200));
    const after = procRss(pid);
    if (after !== null && after > peakRss) peakRss = after;
    if (res.status !== 201) {
      throw new Error(`upload answered ${res.status}: ${res.body.toString('utf8').slice(0, 300)}`);
    }
    return {
      bytes: size,
      status: res.status,
      seconds,
      mbPerS: size / 1e6 / seconds,
      baselineRss,
      peakRss,
      growth: peakRss - baselineRss,
      samples,
    };
  } finally {
    clearInterval(timer);
  }
}

// ---------------------------------------------------------------------------------------------
// Server process

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

async function startServer(
  env: Record<string, string>,
  base: string,
): Promise<{ child: ChildProcess; log: () => string }> {
  // e.g. HS_BENCH_SERVER_NODE_ARGS="--cpu-prof --cpu-prof-dir=tmp/prof" profiles the server.
  const nodeArgs = (process.env.HS_BENCH_SERVER_NODE_ARGS ?? '').split(/\s+/).filter(Boolean);
  const child = spawn(process.execPath, [...nodeArgs, 'bin/hivesight.mjs', 'serve'], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  const keep = (c: Buffer) => {
    log = (log + c.toString()).slice(-8000);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited (${child.exitCode}):\n${log}`);
    try {
      const res = await request(base, 'GET', '/api/public-config');
      if (res.status === 200) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`server did not start:\n${log}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  return { child, log: () => log };
}

async function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
  await exited;
  clearTimeout(timer);
}

// ---------------------------------------------------------------------------------------------

async function main(): Promise<void> {
  const facts = machineFacts();
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hs-bench-server-'));
  const dataDir = path.join(tmp, 'data');
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  let pgDatabase: string | null = null;
  let databaseUrl: string | null = null;
  let server: ChildProcess | undefined;
  let db: Knex | undefined;
  try {
    if (DB_KIND === 'postgres') {
      pgDatabase = `hs_bench_${crypto.randomBytes(5).toString('hex')}`;
      const admin = knexFactory({ client: 'pg', connection: PG_BASE, pool: { min: 0, max: 1 } });
      try {
        await admin.raw(`CREATE DATABASE "${pgDatabase}"`);
      } finally {
        await admin.destroy();
      }
      const u = new URL(PG_BASE);
      u.pathname = `/${pgDatabase}`;
      databaseUrl = u.toString();
    }

    let videoFile: string | undefined;
    let warmupFile: string | undefined;
    if (DO_UPLOAD) {
      console.log(`making a ~${UPLOAD_MB} MB mp4...`);
      videoFile = await makeBigVideo(tmp, UPLOAD_MB, maxFileSize([RESEARCHER]));
      warmupFile = await makeBigVideo(tmp, 1, maxFileSize([RESEARCHER]));
    }

    console.log(`starting the server (${DB_KIND}) on ${base}...`);
    const started = await startServer(
      {
        PORT: String(port),
        HOST: '127.0.0.1',
        PUBLIC_URL: base,
        DATA_DIR: dataDir,
        WORKER_CONCURRENCY: '0',
        ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
      },
      base,
    );
    server = started.child;
    const pid = server.pid!;

    db = createDb(
      databaseUrl ? { databaseUrl } : { sqliteFile: path.join(dataDir, 'hivesight.sqlite') },
    );
    console.log(`seeding ${TOTAL_FILES} files (${USER_FILES} for the beekeeper)...`);
    const seeded = await seed(db);
    await db.destroy();
    db = undefined;

    const userCookie = await signIn(base, seeded.userEmail);
    const adminCookie = await signIn(base, seeded.adminEmail);
    const listBody = () => ({ email_address: seeded.userEmail });

    let uploadResult: UploadResult | null = null;
    let warmupUpload: UploadResult | null = null;
    if (videoFile && warmupFile) {
      // A few requests and a small upload first, so that the baseline is a server that has
      // served something and loaded the engine (the content check): the growth measured is the
      // upload's, not a one-off module load.
      for (let i = 0; i < 5; i += 1) {
        await request(base, 'POST', '/api/get-uploaded-files-list/', {
          cookie: userCookie,
          json: listBody(),
        });
      }
      warmupUpload = await upload(base, userCookie, pid, warmupFile, seeded.userLocations[0]!);
      console.log(`uploading ${mib(fs.statSync(videoFile).size)} MiB...`);
      uploadResult = await upload(base, userCookie, pid, videoFile, seeded.userLocations[0]!);
    }

    console.log(`load: ${REQUESTS} requests per route, ${CONCURRENCY} concurrent clients...`);
    const results: LoadResult[] = [];
    // Reference: the cheapest signed-in route (session look-up, no files), the floor under both.
    if (ROUTES.has('me')) {
      results.push(
        await load('ref: GET /api/me', pid, base, '/api/me', userCookie, null, REQUESTS),
      );
    }
    if (ROUTES.has('list')) {
      results.push(
        await load(
          'uploaded-files list',
          pid,
          base,
          '/api/get-uploaded-files-list/',
          userCookie,
          listBody,
          REQUESTS,
        ),
      );
    }
    if (ROUTES.has('search')) {
      results.push(
        await load(
          'admin search',
          pid,
          base,
          '/api/search-results-files',
          adminCookie,
          searchBody,
          REQUESTS,
        ),
      );
    }
    const serverRssAfter = procRss(pid);

    const title =
      `Server (${DB_KIND}), ${TOTAL_FILES} files (${USER_FILES} the beekeeper's), ` +
      `${CONCURRENCY} concurrent clients${CLIENT_RPS > 0 ? ` at ${CLIENT_RPS} req/s each` : ' (closed loop)'}, ${os.cpus().length} cores, load ${(facts.loadAvg as number[]).join(' ')}`;
    printTable(
      title,
      ['route', 'requests', 'errors', 'rps', 'p50 ms', 'p95 ms', 'p99 ms', 'max ms', 'rows/answer', 'KiB/answer', 'server CPU ms/req', 'database CPU ms/req', 'client CPU ms/req', `p99 < ${TARGET_P99_MS} ms`],
      results.map((r) => [
        r.name,
        r.requests,
        r.errors,
        round(r.rps, 0),
        round(r.p50, 1),
        round(r.p95, 1),
        round(r.p99, 1),
        round(r.max, 1),
        round(r.avgRows, 0),
        round(r.avgKiB, 1),
        r.serverCpuMsPerRequest === null ? '-' : round(r.serverCpuMsPerRequest, 2),
        r.databaseCpuMsPerRequest === null ? '-' : round(r.databaseCpuMsPerRequest, 2),
        round(r.clientCpuMsPerRequest, 2),
        r.p99 < TARGET_P99_MS && r.errors === 0 ? 'met' : 'MISSED',
      ]),
    ); // prettier-ignore
    if (uploadResult) {
      const u = uploadResult;
      printTable(
        'Upload (streamed multipart, server process VmRSS sampled every 10 ms)',
        ['figure', 'value'],
        [
          ['file MB', round(u.bytes / 1e6, 1)],
          ['status', u.status],
          ['seconds', round(u.seconds, 2)],
          ['MB/s', round(u.mbPerS, 1)],
          ['first (1 MB) upload: RSS growth MiB', warmupUpload ? mib(warmupUpload.growth) : '-'],
          ['server RSS before MiB', mib(u.baselineRss)],
          ['server RSS peak MiB', mib(u.peakRss)],
          ['growth MiB', mib(u.growth)],
          [`target growth < ${TARGET_GROWTH_MB} MB`, u.growth < TARGET_GROWTH_MB * 1e6 ? 'met' : 'MISSED'],
        ],
      ); // prettier-ignore
    }

    const file = writeResults(`server-bench-${DB_KIND}`, {
      date: new Date().toISOString(),
      machine: facts,
      loadAvgAfter: os.loadavg().map((n) => round(n, 2)),
      db: DB_KIND,
      seed: {
        files: TOTAL_FILES,
        userFiles: USER_FILES,
        otherUsers: OTHER_USERS,
        seconds: round(seeded.seedS, 1),
      },
      concurrency: CONCURRENCY,
      clientRps: CLIENT_RPS,
      requestsPerRoute: REQUESTS,
      load: results,
      upload: uploadResult,
      warmupUpload,
      serverRssAfterLoad: serverRssAfter,
      targets: {
        p99Ms: TARGET_P99_MS,
        p99Met: results.every((r) => r.p99 < TARGET_P99_MS && r.errors === 0),
        uploadGrowthMB: TARGET_GROWTH_MB,
        uploadMet: uploadResult ? uploadResult.growth < TARGET_GROWTH_MB * 1e6 : null,
      },
    });
    console.log(`\nresults: ${path.relative(process.cwd(), file)}`);
  } catch (err) {
    process.exitCode = 1;
    throw err;
  } finally {
    agent.destroy();
    await db?.destroy();
    if (server) await stopServer(server);
    if (pgDatabase && args.has('keep')) {
      console.log(`kept database ${pgDatabase}`);
    } else if (pgDatabase) {
      const admin = knexFactory({ client: 'pg', connection: PG_BASE, pool: { min: 0, max: 1 } });
      try {
        await admin.raw(`DROP DATABASE IF EXISTS "${pgDatabase}" WITH (FORCE)`);
      } finally {
        await admin.destroy();
      }
    }
    if (!args.has('keep')) fs.rmSync(tmp, { recursive: true, force: true });
    else console.log(`kept ${tmp}`);
  }
}

await main();

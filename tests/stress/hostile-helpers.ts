/**
 * Helpers for the hostile-input stress tests: a capturing logger and mailer, raw HTTP over a
 * socket (for requests fetch refuses to send: lying Content-Length, non-UTF-8 header bytes),
 * hand-built multipart bodies, and the "nothing left behind / nothing leaked" checks over the
 * data folder and the database.
 */
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import type { Knex } from 'knex';
import type { Logger } from '../../server/logger.ts';
import type { MailMessage, Mailer } from '../../server/mailer.ts';

export interface CapturingLogger extends Logger {
  lines: string[];
}

/** Keeps every log line (as the JSON the real logger would write). */
export function capturingLogger(): CapturingLogger {
  const lines: string[] = [];
  const write = (level: string) => (msg: string, fields?: Record<string, unknown>) => {
    lines.push(JSON.stringify({ level, msg, ...fields }));
  };
  return { lines, info: write('info'), warn: write('warn'), error: write('error') };
}

export interface CapturingMailer extends Mailer {
  messages: MailMessage[];
}

export function capturingMailer(): CapturingMailer {
  const messages: MailMessage[] = [];
  return {
    messages,
    send: (m) => {
      messages.push(m);
      return Promise.resolve();
    },
    close: () => {},
  };
}

// ------------------------------------------------------------------ multipart

export type Part =
  | { name: string; value: string | Buffer }
  | {
      name: string;
      /**
       * Raw bytes of the filename parameter (may be non-UTF-8), a string, or `{ extended }`:
       * an RFC 5987 `filename*=` value such as `UTF-8''a%00b.png`.
       */
      filename: string | Buffer | { extended: string };
      data: Buffer;
      contentType?: string;
    };

export const BOUNDARY = 'hsStressBoundary7MA4YWxkTrZu0gW';

/** A multipart/form-data body built byte by byte (so any filename bytes can be sent). */
export function multipartBody(parts: Part[], boundary = BOUNDARY): Uint8Array<ArrayBuffer> {
  const chunks: Buffer[] = [];
  for (const part of parts) {
    chunks.push(Buffer.from(`--${boundary}\r\n`));
    if ('filename' in part) {
      const fn = part.filename;
      const param =
        typeof fn === 'object' && !Buffer.isBuffer(fn)
          ? Buffer.from(`filename*=${fn.extended}`)
          : Buffer.concat([Buffer.from('filename="'), Buffer.from(fn), Buffer.from('"')]);
      chunks.push(
        Buffer.from(`Content-Disposition: form-data; name="${part.name}"; `),
        param,
        Buffer.from(`\r\nContent-Type: ${part.contentType ?? 'application/octet-stream'}\r\n\r\n`),
        part.data,
        Buffer.from('\r\n'),
      );
    } else {
      chunks.push(
        Buffer.from(`Content-Disposition: form-data; name="${part.name}"\r\n\r\n`),
        Buffer.isBuffer(part.value) ? part.value : Buffer.from(part.value),
        Buffer.from('\r\n'),
      );
    }
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return new Uint8Array(Buffer.concat(chunks));
}

// ------------------------------------------------------------------ raw HTTP

export interface RawResponse {
  /** null when the server closed the connection without an answer. */
  status: number | null;
  head: string;
  body: string;
  /** Everything received (several responses when the server answered more than one). */
  raw: string;
}

/**
 * Sends `head` (request line + headers, without the blank line) and `body` over a plain socket
 * and reads until the server closes or `timeoutMs` passes. `halfClose` ends our side after
 * sending (a client that gives up before sending what it declared); `destroyAfterMs` drops the
 * connection that long after sending (a client that vanishes mid-upload).
 */
export function rawHttp(
  baseUrl: string,
  head: string,
  body: Uint8Array,
  opts: { halfClose?: boolean; destroyAfterMs?: number; timeoutMs?: number } = {},
): Promise<RawResponse> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: hostname, port: Number(port) });
    const received: Buffer[] = [];
    let settled = false;
    const finish = () => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      const raw = Buffer.concat(received).toString('utf8');
      const m = /^HTTP\/1\.[01] (\d{3})/.exec(raw);
      const split = raw.indexOf('\r\n\r\n');
      resolve({
        status: m ? Number(m[1]) : null,
        head: split >= 0 ? raw.slice(0, split) : raw,
        body: split >= 0 ? raw.slice(split + 4) : '',
        raw,
      });
    };
    const timer = setTimeout(finish, opts.timeoutMs ?? 10_000);
    socket.on('data', (c: Buffer) => received.push(c));
    socket.on('end', finish);
    socket.on('close', finish);
    socket.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'ECONNRESET' || err.code === 'EPIPE') finish();
      else if (!settled) {
        settled = true;
        clearTimeout(timer);
        reject(err);
      }
    });
    socket.on('connect', () => {
      socket.write(Buffer.concat([Buffer.from(`${head}\r\n\r\n`), body]));
      if (opts.halfClose) socket.end();
      if (opts.destroyAfterMs !== undefined) setTimeout(finish, opts.destroyAfterMs);
    });
  });
}

/** The JSON error body inside a raw response, if there is one. */
export function rawJson(res: RawResponse): { error?: { code?: string }; message?: string } {
  const body = res.body;
  // Chunked bodies: take the first JSON object.
  const start = body.indexOf('{');
  const end = body.lastIndexOf('}');
  if (start < 0 || end < start) return {};
  try {
    return JSON.parse(body.slice(start, end + 1)) as { error?: { code?: string } };
  } catch {
    return {};
  }
}

// ------------------------------------------------------------------ disk and database

/** Every file under `dir` (relative paths), recursively; [] when it does not exist. */
export function walkFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  const out: string[] = [];
  const visit = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const full = path.join(d, e.name);
      if (e.isDirectory()) visit(full);
      else out.push(path.relative(dir, full));
    }
  };
  visit(dir);
  return out.sort();
}

export interface MediaSnapshot {
  incoming: string[];
  media: string[];
  previews: string[];
}

export function mediaSnapshot(dataDir: string): MediaSnapshot {
  return {
    incoming: walkFiles(path.join(dataDir, 'incoming')),
    media: walkFiles(path.join(dataDir, 'media')),
    previews: walkFiles(path.join(dataDir, 'previews')),
  };
}

/** Files under `dir` whose bytes contain `marker`. */
export function filesContaining(dir: string, marker: string): string[] {
  const needle = Buffer.from(marker);
  return walkFiles(dir).filter((f) => fs.readFileSync(path.join(dir, f)).includes(needle));
}

/** Every row of every application table, as JSON text (to search for leaked content). */
export async function dumpTables(db: Knex): Promise<string> {
  const tables = [
    'users',
    'locations',
    'products',
    'sessions',
    'password_resets',
    'files',
    'jobs',
    'comparisons',
    'hornet_alerts',
  ];
  const parts: string[] = [];
  for (const table of tables) {
    if (!(await db.schema.hasTable(table))) continue;
    parts.push(`${table}: ${JSON.stringify(await db(table).select('*'))}`);
  }
  return parts.join('\n');
}

/** Waits until `check` returns a value (not undefined) or `timeoutMs` passes. */
export async function waitFor<T>(
  check: () => Promise<T | undefined> | T | undefined,
  timeoutMs: number,
  what: string,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

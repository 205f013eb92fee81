/**
 * Requests fetch refuses to send, for the hostile-input tests: raw HTTP over a socket (a lying
 * Content-Length, non-UTF-8 header bytes, a client that vanishes mid-upload) and hand-built
 * multipart bodies (any filename bytes).
 */
import net from 'node:net';

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

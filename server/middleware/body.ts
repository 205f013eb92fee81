/**
 * A small JSON body parser (koa-bodyparser is not a dependency). Parses `application/json` (and
 * urlencoded forms) up to `limitBytes` into `ctx.request.body`; larger bodies are refused with 413
 * before being read in full. Multipart bodies are left alone for the upload route's own parser.
 */
import type { Context, Middleware } from 'koa';
import { PayloadTooLarge, ValidationError } from '../errors.ts';

export function jsonBody(limitBytes: number): Middleware {
  return async (ctx, next) => {
    if (!['POST', 'PUT', 'PATCH', 'DELETE'].includes(ctx.method)) {
      await next();
      return;
    }
    const isJson = ctx.is('application/json', '+json');
    const isForm = ctx.is('application/x-www-form-urlencoded');
    if (!isJson && !isForm) {
      await next();
      return;
    }
    const declared = Number(ctx.get('content-length') || '0');
    if (declared > limitBytes) {
      // The body stays unread: the connection cannot carry another request after this answer.
      ctx.set('Connection', 'close');
      throw new PayloadTooLarge(`Request body is larger than ${limitBytes} bytes`);
    }
    const raw = await readLimited(ctx, limitBytes);
    let body: unknown = {};
    if (raw.trim() !== '') {
      if (isJson) {
        try {
          body = JSON.parse(raw);
        } catch {
          throw new ValidationError('The request body is not valid JSON');
        }
        if (JSON_NUL.test(raw)) throw new ValidationError(NUL_MESSAGE);
      } else {
        const form = new URLSearchParams(raw);
        if ([...form].some(([k, v]) => hasNul(k) || hasNul(v)))
          throw new ValidationError(NUL_MESSAGE);
        body = Object.fromEntries(form);
      }
    }
    setBody(ctx, body);
    await next();
  };
}

/**
 * A NUL character in any text is refused: PostgreSQL cannot store it in a text column (the
 * query fails, which was a 500) and no field of ours has a use for it. In JSON text it can
 * only appear escaped: `\u0000` preceded by an even number of backslashes.
 */
export const NUL_MESSAGE = 'Text fields cannot contain NUL characters.';
const JSON_NUL = /(?:^|[^\\])(?:\\\\)*\\u0000/;

export function hasNul(text: string): boolean {
  return text.includes('\u0000');
}

async function readLimited(ctx: Context, limitBytes: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of ctx.req) {
      const buf = chunk as Buffer;
      size += buf.length;
      if (size > limitBytes) {
        ctx.req.unpipe();
        ctx.set('Connection', 'close');
        throw new PayloadTooLarge(`Request body is larger than ${limitBytes} bytes`);
      }
      chunks.push(buf);
    }
  } catch (err) {
    // The client went away mid-body (Node's "aborted", code ECONNRESET): the client's doing,
    // not a server fault, and not the database being down, which ECONNRESET would read as.
    if (!(err instanceof PayloadTooLarge) && !ctx.req.complete)
      throw new ValidationError('The request was interrupted before its body arrived.');
    throw err;
  }
  return Buffer.concat(chunks).toString('utf8');
}

function setBody(ctx: Context, body: unknown): void {
  (ctx.request as { body?: unknown }).body = body;
}

/** The parsed body as a plain object ({} when absent or not an object). */
export function bodyOf(ctx: Context): Record<string, unknown> {
  const body = (ctx.request as { body?: unknown }).body;
  return body !== null && typeof body === 'object' && !Array.isArray(body)
    ? (body as Record<string, unknown>)
    : {};
}

/** A body field as a trimmed string ('' when absent or not a string). */
export function stringField(body: Record<string, unknown>, key: string): string {
  const v = body[key];
  return typeof v === 'string' ? v.trim() : '';
}

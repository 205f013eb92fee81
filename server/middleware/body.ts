/**
 * Request bodies: @koa/bodyparser (co-body) parses JSON (`application/json`, `+json`) and
 * urlencoded forms up to `limitBytes` into `ctx.request.body`; multipart bodies are left to the
 * upload route's own parser. Its errors become our typed ones, so the error table answers them.
 * The NUL check stays ours: PostgreSQL cannot store NUL in a text column.
 */
import { bodyParser } from '@koa/bodyparser';
import type { Context, Middleware } from 'koa';
import { PayloadTooLarge, ValidationError } from '../errors.ts';

export function jsonBody(limitBytes: number): Middleware {
  const parse = bodyParser({
    parsedMethods: ['POST', 'PUT', 'PATCH', 'DELETE'],
    enableTypes: ['json', 'form'],
    detectJSON: (ctx) => Boolean(ctx.is('application/json', '+json')),
    jsonStrict: false,
    jsonLimit: limitBytes,
    formLimit: limitBytes,
    onError: (err, ctx) => {
      throw parseError(err, ctx, limitBytes);
    },
  });
  return async (ctx, next) => {
    await parse(ctx, async () => {
      refuseNul(ctx);
      await next();
    });
  };
}

function parseError(err: Error, ctx: Context, limitBytes: number): Error {
  const type = (err as { type?: string }).type;
  if (type === 'entity.too.large') {
    // The rest of the body stays unread: the connection cannot carry another request after this.
    ctx.set('Connection', 'close');
    return new PayloadTooLarge(`Request body is larger than ${limitBytes} bytes`);
  }
  // The client went away mid-body: its doing, not a server fault.
  if (type === 'request.aborted' || !ctx.req.complete)
    return new ValidationError('The request was interrupted before its body arrived.');
  if (err instanceof SyntaxError) return new ValidationError('The request body is not valid JSON');
  return new ValidationError('The request body could not be read.');
}

/**
 * A NUL character in any text is refused: PostgreSQL cannot store it in a text column and no
 * field of ours has a use for it. In JSON text it can only appear escaped: `\u0000` preceded by
 * an even number of backslashes.
 */
export const NUL_MESSAGE = 'Text fields cannot contain NUL characters.';
const JSON_NUL = /(?:^|[^\\])(?:\\\\)*\\u0000/;

export function hasNul(text: string): boolean {
  return text.includes('\u0000');
}

function refuseNul(ctx: Context): void {
  const raw = (ctx.request as { rawBody?: unknown }).rawBody;
  if (typeof raw !== 'string' || raw === '') return;
  if (
    ctx.is('application/x-www-form-urlencoded')
      ? hasNul(raw) || hasEncodedNul(raw)
      : JSON_NUL.test(raw)
  )
    throw new ValidationError(NUL_MESSAGE);
}

function hasEncodedNul(form: string): boolean {
  return [...new URLSearchParams(form)].some(([k, v]) => hasNul(k) || hasNul(v));
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

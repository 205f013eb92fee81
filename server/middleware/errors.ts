/**
 * The ONE error middleware, first in the chain. Maps error classes (HTTP, engine, database) to a
 * status in ONE table and answers one body shape:
 *   { "error": { "code", "message", "fields"? }, "message" }
 * (`message` at top level because the console shows `response.data.message`, spec 8).
 * Only unexpected errors (-> 500) are logged with their stack; their text never reaches the client.
 *
 * Engine media errors: unsupported format and unsafe content (playlists, references) are 415,
 * since the server refuses that kind of content; corrupt media and decoder timeouts are 422
 * (right type, unprocessable content); limits are 413.
 */
import type { Middleware } from 'koa';
import {
  AnalysisCancelledError,
  CorruptMediaError,
  MediaLimitError,
  MediaTimeoutError,
  ModelError,
  ToolMissingError,
  UnsafeMediaError,
  UnsupportedMediaError,
} from '../../engine/errors.ts';
import {
  Conflict,
  Forbidden,
  NotFound,
  PayloadTooLarge,
  RateLimited,
  ServiceUnavailable,
  Unauthorized,
  UnsupportedMediaType,
  ValidationError,
} from '../errors.ts';
import type { Logger } from '../logger.ts';

type ErrorClass = abstract new (...args: never[]) => Error;

/** Error class -> HTTP status. Order matters only for subclasses (none overlap today). */
const STATUS_TABLE: Array<[ErrorClass, number]> = [
  [ValidationError, 400],
  [Unauthorized, 401],
  [Forbidden, 403],
  [NotFound, 404],
  [Conflict, 409],
  [PayloadTooLarge, 413],
  [UnsupportedMediaType, 415],
  [RateLimited, 429],
  [ServiceUnavailable, 503],
  [UnsupportedMediaError, 415],
  [UnsafeMediaError, 415],
  [CorruptMediaError, 422],
  [MediaTimeoutError, 422],
  [MediaLimitError, 413],
  [ToolMissingError, 503],
  [ModelError, 503],
  [AnalysisCancelledError, 503],
];

/** Error codes of a database that is down or overloaded (pg, node net, sqlite). */
const DB_UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EAI_AGAIN',
  '57P01', // admin_shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now
  '53300', // too_many_connections
  'SQLITE_BUSY',
  'SQLITE_LOCKED',
]);

export interface ErrorBody {
  error: { code: string; message: string; fields?: Record<string, string> };
  message: string;
}

export function classify(err: unknown): {
  status: number;
  code: string;
  message: string;
  expected: boolean;
} {
  if (err instanceof Error) {
    for (const [cls, status] of STATUS_TABLE) {
      if (err instanceof cls) {
        const code = (err as { code?: unknown }).code;
        return {
          status,
          code: typeof code === 'string' ? code : err.name,
          message: err.message,
          expected: true,
        };
      }
    }
    const code = (err as { code?: unknown }).code;
    if (
      err.name === 'KnexTimeoutError' ||
      (typeof code === 'string' && DB_UNAVAILABLE_CODES.has(code))
    ) {
      const e = new ServiceUnavailable();
      return { status: 503, code: e.code, message: e.message, expected: false };
    }
    // Errors from other Koa middleware (http-errors) carry `status` and `expose`.
    const { status, expose } = err as { status?: unknown; expose?: unknown };
    if (typeof status === 'number' && status >= 400 && status < 500) {
      return {
        status,
        code: `HTTP_${status}`,
        message: expose === true ? err.message : 'Bad request',
        expected: true,
      };
    }
  }
  return {
    status: 500,
    code: 'INTERNAL',
    message: 'Something went wrong on our side. Please try again.',
    expected: false,
  };
}

export function errorMiddleware(logger: Logger): Middleware {
  return async (ctx, next) => {
    try {
      await next();
    } catch (err) {
      const { status, code, message, expected } = classify(err);
      if (!expected) {
        logger.error('request failed', {
          method: ctx.method,
          path: ctx.path,
          status,
          error: err instanceof Error ? err.stack : String(err),
        });
      }
      const body: ErrorBody = { error: { code, message }, message };
      if (err instanceof ValidationError && Object.keys(err.fields).length > 0)
        body.error.fields = err.fields;
      if (err instanceof RateLimited && err.retryAfterSeconds)
        ctx.set('Retry-After', String(err.retryAfterSeconds));
      ctx.status = status;
      ctx.body = body;
    }
  };
}

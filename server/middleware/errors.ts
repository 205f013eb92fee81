/**
 * The ONE error middleware, first in the chain. Maps error classes (HTTP, engine, database) to a
 * status in ONE table and answers one body shape:
 *   { "error": { "code", "message", "fields"? }, "message" }
 * (`message` at top level because the console shows `response.data.message`, spec 8).
 * Unexpected errors (500), an unavailable engine or model (503) and database or disk trouble are
 * logged with their stack; their text never reaches the client. Engine errors answer the fixed
 * sentence of their code (server/user-messages.ts): their own text may name server paths.
 *
 * Engine media errors: unsupported format and unsafe content (playlists, references) are 415,
 * since the server refuses that kind of content; corrupt media and decoder timeouts are 422
 * (right type, unprocessable content); limits are 413.
 */
import type { Middleware } from 'koa';
import { ENGINE_ERRORS, EngineError, isEngineErrorCode } from '../../engine/vocabulary.ts';
import type { EngineErrorCode } from '../../engine/vocabulary.ts';
import {
  Conflict,
  Forbidden,
  InsufficientStorage,
  NotFound,
  PayloadTooLarge,
  RateLimited,
  ServiceUnavailable,
  Unauthorized,
  UnsupportedMediaType,
  ValidationError,
} from '../errors.ts';
import type { HttpError } from '../errors.ts';
import type { Logger } from '../logger.ts';
import { ENGINE_ERROR_STATUS, ERROR_MESSAGES, ERROR_STATUS } from '../../contract/errors.ts';
import type { ErrorCode } from '../../contract/errors.ts';
import type { ErrorBody } from '../../contract/schemas/common.ts';
import { userMessageFor } from '../user-messages.ts';

type ErrorClass = abstract new (...args: never[]) => HttpError;

/** Error class -> HTTP status. Order matters only for subclasses (none overlap today). */
const STATUS_TABLE: Array<[ErrorClass, number]> = [
  [ValidationError, ERROR_STATUS.VALIDATION],
  [Unauthorized, ERROR_STATUS.UNAUTHORIZED],
  [Forbidden, ERROR_STATUS.FORBIDDEN],
  [NotFound, ERROR_STATUS.NOT_FOUND],
  [Conflict, ERROR_STATUS.CONFLICT],
  [PayloadTooLarge, ERROR_STATUS.PAYLOAD_TOO_LARGE],
  [UnsupportedMediaType, ERROR_STATUS.UNSUPPORTED_MEDIA_TYPE],
  [RateLimited, ERROR_STATUS.RATE_LIMITED],
  [ServiceUnavailable, ERROR_STATUS.SERVICE_UNAVAILABLE],
  [InsufficientStorage, ERROR_STATUS.INSUFFICIENT_STORAGE],
];

/**
 * Engine error code -> HTTP status, from the contract; an engine code the contract lacks is a
 * type error here (and contract-agreement.test.ts checks the contract has no extra one).
 */
const ENGINE_STATUS: Record<EngineErrorCode, number> = ENGINE_ERROR_STATUS;

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
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  '08000', // connection_exception
  '08001', // sqlclient_unable_to_establish_sqlconnection
  '08003', // connection_does_not_exist
  '08006', // connection_failure
  'SQLITE_BUSY',
  'SQLITE_LOCKED',
]);

/** node-postgres reports a dropped or unusable connection without a code. */
const DB_UNAVAILABLE_MESSAGES =
  /Connection terminated|connection error and is not queryable|Client was closed and is not queryable|timeout exceeded when trying to connect/i;

/** A full disk (file writes) or a full database file: 507, nothing kept. */
const STORAGE_FULL_CODES = new Set(['ENOSPC', 'EDQUOT', 'SQLITE_FULL']);

/** Seconds a client is told to wait after a 503 for an unavailable database. */
export const DB_RETRY_AFTER_SECONDS = 5;

/** True for errors meaning the database cannot be reached or is locked right now. */
export function isDbUnavailable(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  const code = (err as { code?: unknown }).code;
  return (
    err.name === 'KnexTimeoutError' ||
    (typeof code === 'string' && DB_UNAVAILABLE_CODES.has(code)) ||
    DB_UNAVAILABLE_MESSAGES.test(err.message)
  );
}

export type { ErrorBody };

export function classify(err: unknown): {
  status: number;
  code: ErrorCode;
  message: string;
  expected: boolean;
  retryAfterSeconds?: number;
} {
  if (err instanceof EngineError && isEngineErrorCode(err.code)) {
    return {
      status: ENGINE_STATUS[err.code],
      code: err.code,
      message: userMessageFor(err),
      // A missing tool or model is the server's fault: logged in full.
      expected: ENGINE_ERRORS[err.code].cause !== 'installation',
    };
  }
  if (err instanceof Error) {
    for (const [cls, status] of STATUS_TABLE) {
      if (err instanceof cls) {
        const retry = (err as { retryAfterSeconds?: unknown }).retryAfterSeconds;
        return {
          status,
          code: err.code,
          message: err.message,
          expected: true,
          ...(typeof retry === 'number' && retry > 0 ? { retryAfterSeconds: retry } : {}),
        };
      }
    }
    const code = (err as { code?: unknown }).code;
    if (isDbUnavailable(err)) {
      const e = new ServiceUnavailable();
      return {
        status: 503,
        code: e.code,
        message: e.message,
        expected: false,
        retryAfterSeconds: DB_RETRY_AFTER_SECONDS,
      };
    }
    if (typeof code === 'string' && STORAGE_FULL_CODES.has(code)) {
      const e = new InsufficientStorage();
      return { status: 507, code: e.code, message: e.message, expected: false };
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
    status: ERROR_STATUS.INTERNAL,
    code: 'INTERNAL',
    message: ERROR_MESSAGES.INTERNAL,
    expected: false,
  };
}

export function errorMiddleware(logger: Logger): Middleware {
  return async (ctx, next) => {
    try {
      await next();
    } catch (err) {
      const { status, code, message, expected, retryAfterSeconds } = classify(err);
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
      if (retryAfterSeconds) ctx.set('Retry-After', String(retryAfterSeconds));
      // A failed upload may leave part of its body unread: do not keep the connection.
      if (status === 507) ctx.set('Connection', 'close');
      ctx.status = status;
      ctx.body = body;
    }
  };
}

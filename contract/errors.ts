/**
 * The API's error codes, their statuses and default messages: what `{ error: { code } }` may
 * hold. Plain constants (no zod), so the console can import them at no cost. The server's error
 * classes (server/errors.ts) take their codes and default messages from here, and its middleware's
 * status table is checked against ERROR_STATUS (server/middleware/errors.test.ts).
 */

/** The server's own errors: code -> HTTP status. */
export const ERROR_STATUS = {
  VALIDATION: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RATE_LIMITED: 429,
  INTERNAL: 500,
  SERVICE_UNAVAILABLE: 503,
  INSUFFICIENT_STORAGE: 507,
} as const;
export type HttpErrorCode = keyof typeof ERROR_STATUS;

/** The engine's error codes (engine/errors.ts ENGINE_ERRORS), answered as they are. */
export const ENGINE_ERROR_STATUS = {
  UNSUPPORTED_MEDIA: 415,
  UNSAFE_MEDIA: 415,
  CORRUPT_MEDIA: 422,
  MEDIA_TIMEOUT: 422,
  MEDIA_LIMIT: 413,
  DATASET_INVALID: 422,
  TOOL_MISSING: 503,
  MODEL_INVALID: 503,
  CANCELLED: 503,
} as const;
export type EngineErrorCode = keyof typeof ENGINE_ERROR_STATUS;

/** Every code an error body may carry; `HTTP_4xx` for errors of Koa's own middleware. */
export type ErrorCode = HttpErrorCode | EngineErrorCode | `HTTP_${number}`;

/**
 * What a user is told when an error carries no sentence of its own: the server's defaults, and
 * what the console shows when an answer has no message (a proxy's 403, an empty 503).
 */
export const ERROR_MESSAGES = {
  VALIDATION: 'Invalid request',
  UNAUTHORIZED: 'Please sign in.',
  FORBIDDEN: 'Administrators only',
  NOT_FOUND: 'Not found',
  CONFLICT: 'This cannot be done in the current state. Reload the page and try again.',
  PAYLOAD_TOO_LARGE: 'The request is too large.',
  UNSUPPORTED_MEDIA_TYPE: 'This kind of content is not accepted here.',
  RATE_LIMITED: 'Too many attempts. Please wait a few minutes and try again.',
  INTERNAL: 'Something went wrong on our side. Please try again.',
  SERVICE_UNAVAILABLE: 'The service is temporarily unavailable. Please try again shortly.',
  INSUFFICIENT_STORAGE:
    'Insufficient storage: the server has no room for this file right now. Please try again later.',
} as const satisfies Record<HttpErrorCode, string>;

const BY_STATUS = new Map<number, HttpErrorCode>(
  Object.entries(ERROR_STATUS).map(([code, status]) => [status, code as HttpErrorCode]),
);

/** The server's code for a status, for answers that carry none (from a proxy, say). */
export function codeForStatus(status: number): HttpErrorCode | null {
  return BY_STATUS.get(status) ?? null;
}

export function isErrorCode(value: unknown): value is ErrorCode {
  return (
    typeof value === 'string' &&
    (value in ERROR_STATUS || value in ENGINE_ERROR_STATUS || /^HTTP_\d{3}$/.test(value))
  );
}

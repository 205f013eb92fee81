/**
 * HTTP errors thrown by routes and middleware. Each carries a stable `code` of the contract
 * (contract/errors.ts), which also holds the default messages; the status lives in ONE table in
 * middleware/errors.ts. Messages are shown to users, so they say what to do.
 */
import { ERROR_MESSAGES } from '../contract/errors.ts';
import type { HttpErrorCode } from '../contract/errors.ts';

export abstract class HttpError extends Error {
  abstract readonly code: HttpErrorCode;
  constructor(message: string) {
    super(message);
    this.name = new.target.name;
  }
}

/** 400: the request is malformed or a field is invalid; `fields` maps field -> message. */
export class ValidationError extends HttpError {
  readonly code = 'VALIDATION';
  constructor(
    message: string,
    readonly fields: Record<string, string> = {},
  ) {
    super(message);
  }
  /** One error for several field problems; the message is the first problem. */
  static of(fields: Record<string, string>): ValidationError {
    return new ValidationError(Object.values(fields)[0] ?? ERROR_MESSAGES.VALIDATION, fields);
  }
}
export class Unauthorized extends HttpError {
  readonly code = 'UNAUTHORIZED';
  constructor(message: string = ERROR_MESSAGES.UNAUTHORIZED) {
    super(message);
  }
}
export class Forbidden extends HttpError {
  readonly code = 'FORBIDDEN';
  constructor(message: string = ERROR_MESSAGES.FORBIDDEN) {
    super(message);
  }
}
export class NotFound extends HttpError {
  readonly code = 'NOT_FOUND';
  constructor(message: string = ERROR_MESSAGES.NOT_FOUND) {
    super(message);
  }
}
export class Conflict extends HttpError {
  readonly code = 'CONFLICT';
}
export class PayloadTooLarge extends HttpError {
  readonly code = 'PAYLOAD_TOO_LARGE';
}
export class UnsupportedMediaType extends HttpError {
  readonly code = 'UNSUPPORTED_MEDIA_TYPE';
}
export class RateLimited extends HttpError {
  readonly code = 'RATE_LIMITED';
  constructor(
    message: string = ERROR_MESSAGES.RATE_LIMITED,
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }
}
export class ServiceUnavailable extends HttpError {
  readonly code = 'SERVICE_UNAVAILABLE';
  constructor(
    message: string = ERROR_MESSAGES.SERVICE_UNAVAILABLE,
    readonly retryAfterSeconds = 5,
  ) {
    super(message);
  }
}
/** 507: the server's disk (or database) is full; nothing of the request was kept. */
export class InsufficientStorage extends HttpError {
  readonly code = 'INSUFFICIENT_STORAGE';
  constructor(message: string = ERROR_MESSAGES.INSUFFICIENT_STORAGE) {
    super(message);
  }
}

// What the sign-in screen says when sign-in fails. Only refused credentials read "Invalid
// username or password": a rate limit or an unavailable server is not the user's typing, and
// saying it was sends them guessing at a password that was right.
import { ApiError } from './api.ts';

export const INVALID_CREDENTIALS = 'Invalid username or password';
export const UNAVAILABLE =
  'The sign-in service is unavailable right now. Please try again in a moment.';
export const UNREACHABLE = 'The server could not be reached. Check your connection and try again.';

/** "45 seconds", "1 minute", "15 minutes", "2 hours". */
export function waitText(seconds: number): string {
  const unit = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  if (seconds < 60) return unit(Math.ceil(seconds), 'second');
  if (seconds < 3600) return unit(Math.ceil(seconds / 60), 'minute');
  return unit(Math.ceil(seconds / 3600), 'hour');
}

export function signInFailure(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.code === 'RATE_LIMITED') {
      // The server usually words the wait itself; otherwise Retry-After says it.
      const saysWait = /\d/.test(error.message);
      const wait =
        error.retryAfterSeconds && !saysWait
          ? ` You can try again in ${waitText(error.retryAfterSeconds)}.`
          : '';
      return `${error.message}${wait}`;
    }
    // The server's own sentence about its unavailability; a proxy's bare 5xx says nothing useful.
    if (
      error.code === 'SERVICE_UNAVAILABLE' &&
      typeof (error.body as { message?: unknown })?.message === 'string'
    )
      return error.message;
    if (error.status >= 500) return UNAVAILABLE;
    if (error.code !== 'UNAUTHORIZED' && error.status >= 400) return error.message;
    return INVALID_CREDENTIALS;
  }
  // fetch rejects with a TypeError when no answer came back at all.
  if (error instanceof TypeError) return UNREACHABLE;
  return INVALID_CREDENTIALS;
}

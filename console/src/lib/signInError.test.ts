import { describe, expect, it } from 'vitest';
import { ApiError } from './api.ts';
import {
  INVALID_CREDENTIALS,
  UNAVAILABLE,
  UNREACHABLE,
  signInFailure,
  waitText,
} from './signInError.ts';

describe('signInFailure', () => {
  it('keeps "Invalid username or password" for refused credentials only', () => {
    expect(signInFailure(new Error(INVALID_CREDENTIALS))).toBe(INVALID_CREDENTIALS);
    expect(signInFailure(new ApiError('Please sign in.', 401, null))).toBe(INVALID_CREDENTIALS);
  });

  it('gives a rate limit the server message and its wait', () => {
    const limited = new ApiError('Too many attempts.', 429, { message: 'Too many attempts.' }, 840);
    expect(signInFailure(limited)).toBe('Too many attempts. You can try again in 14 minutes.');
    expect(signInFailure(new ApiError('Too many attempts.', 429, null))).toBe('Too many attempts.');
    const worded = 'Too many sign-in attempts. Please wait 14 minutes and try again.';
    expect(signInFailure(new ApiError(worded, 429, { message: worded }, 840))).toBe(worded);
  });

  it('says the service is unavailable for a 5xx, with the server message when it sent one', () => {
    const said = new ApiError('Down for a moment.', 503, { message: 'Down for a moment.' }, 5);
    expect(signInFailure(said)).toBe('Down for a moment.');
    expect(signInFailure(new ApiError('Network response was not ok (502)', 502, '<html>'))).toBe(
      UNAVAILABLE,
    );
    expect(signInFailure(new TypeError('Failed to fetch'))).toBe(UNREACHABLE);
  });

  it('words waits in seconds, minutes or hours', () => {
    expect(waitText(1)).toBe('1 second');
    expect(waitText(59)).toBe('59 seconds');
    expect(waitText(60)).toBe('1 minute');
    expect(waitText(7200)).toBe('2 hours');
  });
});

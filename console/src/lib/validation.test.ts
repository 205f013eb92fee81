import { describe, expect, it } from 'vitest';
import {
  exceedsLimit,
  forgotPasswordError,
  hasAcceptedExtension,
  isUploadComplete,
  loginError,
  registrationErrors,
  sizeExceededMessage,
  uploadErrors,
} from './validation.ts';

const MB = 1024 * 1024;

describe('login and forgot password', () => {
  it('requires both fields', () => {
    expect(loginError('', 'x')).toBe('Email and password are required');
    expect(loginError('a@b.co', '')).toBe('Email and password are required');
    expect(loginError('a@b.co', 'secret')).toBeNull();
  });
  it('requires an e-mail to send a reset link', () => {
    expect(forgotPasswordError('  ')).toBe('Please enter your email address.');
    expect(forgotPasswordError('a@b.co')).toBeNull();
  });
});

describe('registrationErrors', () => {
  it('gives the spec messages', () => {
    expect(registrationErrors({ name: '', email: '', password: '', confirmPassword: '' })).toEqual({
      name: 'Name is required',
      email: 'Email is required',
      password: 'Password is required',
      confirmPassword: 'Confirm Password is required',
    });
    expect(
      registrationErrors({ name: 'A', email: 'nope', password: 'short', confirmPassword: 'other' }),
    ).toEqual({
      email: 'Invalid email',
      password: 'Password must be at least 8 characters',
      confirmPassword: 'Passwords must match',
    });
    expect(
      registrationErrors({
        name: 'A',
        email: 'a@b.co',
        password: '12345678',
        confirmPassword: '12345678',
      }),
    ).toEqual({});
  });
});

describe('upload rules', () => {
  it('uses the special wordings for 50 MB and 20 MB', () => {
    expect(sizeExceededMessage(50 * MB)).toBe(
      'This file exceeds the 50 MB limit and cannot be processed. Please select a file smaller than 50 MB.',
    );
    expect(sizeExceededMessage(20 * MB)).toBe(
      'This file exceeds the 20 MB limit and cannot be processed. Please select a file smaller than 20 MB.',
    );
    expect(sizeExceededMessage(10 * MB)).toBe(
      'This file exceeds the 10 MB limit and cannot be processed. Please select a smaller file.',
    );
    expect(sizeExceededMessage(null)).toMatch(/Please select a smaller file\.$/);
  });
  it('checks the limit only when known', () => {
    expect(exceedsLimit(11 * MB, 10 * MB)).toBe(true);
    expect(exceedsLimit(10 * MB, 10 * MB)).toBe(false);
    expect(exceedsLimit(11 * MB, null)).toBe(false);
  });
  it('accepts the five extensions', () => {
    for (const name of ['a.MP4', 'b.jpg', 'c.jpeg', 'd.png', 'e.avi'])
      expect(hasAcceptedExtension(name)).toBe(true);
    expect(hasAcceptedExtension('f.gif')).toBe(false);
  });
  it('requires a file, a trimmed description and a location', () => {
    expect(uploadErrors({ file: null, description: '  ', location: '' })).toEqual({
      file: 'Select a file to continue.',
      description: 'Enter a brief description of the file.',
      location: 'Select a location for this upload.',
    });
    expect(isUploadComplete({ file: { name: 'a.png' }, description: 'x', location: 'North' })).toBe(
      true,
    );
  });
});

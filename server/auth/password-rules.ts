/**
 * What makes a password trivially guessable, beyond its length (decisions.md 1: at least 8
 * characters): only whitespace, one repeated character, the user's e-mail or its local part, or
 * one of the most common passwords (common-passwords.txt), also with digits or symbols tacked
 * on ("password123!"). Applied at registration and at password reset; the reason is shown.
 */
import fs from 'node:fs';
import path from 'node:path';

export const MIN_PASSWORD_LENGTH = 8;
export const MAX_PASSWORD_LENGTH = 1024;

const COMMON: ReadonlySet<string> = new Set(
  fs
    .readFileSync(path.join(import.meta.dirname, 'common-passwords.txt'), 'utf8')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#')),
);

export const PASSWORD_MESSAGES = {
  required: 'Password is required',
  short: 'Password must be at least 8 characters',
  long: 'Password is too long',
  blank: 'Password must not be only spaces',
  repeated: 'Password must not be one character repeated',
  email: 'Password must not be your email address or its name part',
  common: 'This password is too common and easy to guess. Please choose another one.',
} as const;

/** The reason `password` is refused for the account `email`, or null when it is acceptable. */
export function passwordProblem(password: string, email: string): string | null {
  if (!password) return PASSWORD_MESSAGES.required;
  if (password.length < MIN_PASSWORD_LENGTH) return PASSWORD_MESSAGES.short;
  if (password.length > MAX_PASSWORD_LENGTH) return PASSWORD_MESSAGES.long;
  if (password.trim() === '') return PASSWORD_MESSAGES.blank;
  const chars = [...password];
  if (chars.every((c) => c === chars[0])) return PASSWORD_MESSAGES.repeated;
  const lower = password.trim().toLowerCase();
  const address = email.trim().toLowerCase();
  const localPart = address.split('@')[0] ?? '';
  if (address !== '' && (lower === address || (localPart !== '' && lower === localPart)))
    return PASSWORD_MESSAGES.email;
  if (COMMON.has(lower)) return PASSWORD_MESSAGES.common;
  // "Password123!", "dragon2024": a common word with digits or symbols around it.
  const core = lower.replace(/^[\d\W_]+|[\d\W_]+$/gu, '');
  if (core.length >= 4 && (COMMON.has(core) || core === localPart)) return PASSWORD_MESSAGES.common;
  return null;
}

// Validation rules and their exact messages (spec section 5).
import { formatBytes } from './format.ts';
import type { RouteInput } from '../../../contract/client.ts';

export const MIN_PASSWORD_LENGTH = 8;
export const ACCEPTED_EXTENSIONS = ['.mp4', '.jpg', '.jpeg', '.png', '.avi'] as const;
export const ACCEPT_ATTRIBUTE = ACCEPTED_EXTENSIONS.join(',');

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function loginError(email: string, password: string): string | null {
  return email.trim() === '' || password === '' ? 'Email and password are required' : null;
}

/** The registration form: the register route's body but for the locations, chosen apart. */
export type RegistrationInput = Omit<RouteInput<'POST /api/register-user/'>['body'], 'locations'>;

export type RegistrationErrors = Partial<Record<keyof RegistrationInput, string>>;

export function registrationErrors(input: RegistrationInput): RegistrationErrors {
  const errors: RegistrationErrors = {};
  if (input.name.trim() === '') errors.name = 'Name is required';
  if (input.email.trim() === '') errors.email = 'Email is required';
  else if (!EMAIL_PATTERN.test(input.email.trim())) errors.email = 'Invalid email';
  if (input.password === '') errors.password = 'Password is required';
  else if (input.password.length < MIN_PASSWORD_LENGTH)
    errors.password = 'Password must be at least 8 characters';
  if (input.confirmPassword === '') errors.confirmPassword = 'Confirm Password is required';
  else if (input.confirmPassword !== input.password)
    errors.confirmPassword = 'Passwords must match';
  return errors;
}

export function forgotPasswordError(email: string): string | null {
  return email.trim() === '' ? 'Please enter your email address.' : null;
}

export function hasAcceptedExtension(fileName: string): boolean {
  const lower = fileName.toLowerCase();
  return ACCEPTED_EXTENSIONS.some((ext) => lower.endsWith(ext));
}

const MB = 1024 * 1024;

/** The File Size Exceeded message for a limit in bytes (special wordings for 50 MB and 20 MB). */
export function sizeExceededMessage(maxBytes: number | null | undefined): string {
  if (maxBytes === 50 * MB || maxBytes === 20 * MB) {
    const size = `${maxBytes / MB} MB`;
    return `This file exceeds the ${size} limit and cannot be processed. Please select a file smaller than ${size}.`;
  }
  const size = typeof maxBytes === 'number' && maxBytes > 0 ? formatBytes(maxBytes) : '';
  if (size === '') {
    return 'This file exceeds the maximum allowed size and cannot be processed. Please select a smaller file.';
  }
  return `This file exceeds the ${size} limit and cannot be processed. Please select a smaller file.`;
}

export function exceedsLimit(size: number, maxBytes: number | null | undefined): boolean {
  return typeof maxBytes === 'number' && maxBytes > 0 && size > maxBytes;
}

export interface UploadInput {
  file: { name: string } | null;
  description: string;
  location: string;
}

export interface UploadErrors {
  file?: string;
  description?: string;
  location?: string;
}

export const MISSING_INFORMATION = {
  title: 'Missing information',
  message: 'Please provide a file, description, and location before uploading.',
} as const;

export function uploadErrors(input: UploadInput): UploadErrors {
  const errors: UploadErrors = {};
  if (!input.file) errors.file = 'Select a file to continue.';
  if (input.description.trim() === '')
    errors.description = 'Enter a brief description of the file.';
  if (input.location.trim() === '') errors.location = 'Select a location for this upload.';
  return errors;
}

export function isUploadComplete(input: UploadInput): boolean {
  return Object.keys(uploadErrors(input)).length === 0;
}

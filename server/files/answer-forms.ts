/**
 * How stored values are spelled in answers: timestamps with their offset, and the API's file
 * URLs (decisions.md 1b). Kept apart from records.ts so that the file record's one definition
 * (file-record.ts) and records.ts can both use them without importing each other.
 */
import type { FileRow } from './file-row.ts';

/** `toISOString()` output whose day exists in every month (so Date would not roll it over). */
const CANONICAL_UTC =
  /^\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|1\d|2[0-8])T(?:[01]\d|2[0-3]):[0-5]\d:[0-5]\d\.\d{3}Z$/;

/** Stored timestamps are UTC (`...Z`); answers spell the offset out (`+00:00`). */
export function isoWithOffset(stored: string | null): string {
  if (!stored) return '';
  // Fast path for what the server writes (lists map thousands of these per request).
  if (CANONICAL_UTC.test(stored)) return `${stored.slice(0, -1)}+00:00`;
  const d = new Date(stored);
  if (Number.isNaN(d.getTime())) return stored;
  return d.toISOString().replace(/Z$/, '+00:00');
}

/** Every URL of one file's resources starts here, then the file's id, `/`, the resource. */
export const FILE_URL_PREFIX = '/api/files/';
export type FileResource = 'media' | 'report.csv' | 'preview.jpg' | 'summary.csv' | 'hornet.jpg';
export const fileUrl = (id: number, resource: FileResource): string =>
  `${FILE_URL_PREFIX}${id}/${resource}`;

export const mediaUrl = (id: number): string => fileUrl(id, 'media');
export const reportUrl = (id: number): string => fileUrl(id, 'report.csv');
export const previewUrl = (id: number): string => fileUrl(id, 'preview.jpg');
export const summaryUrl = (id: number): string => fileUrl(id, 'summary.csv');
export const hornetFrameUrl = (id: number): string => fileUrl(id, 'hornet.jpg');

export function hasMedia(row: Pick<FileRow, 'media_deleted_at'>): boolean {
  return row.media_deleted_at === null;
}

// Client-side filters (spec section 5, "Filters").
import type { FileRecord, UserProductRow } from './records.ts';

function needle(query: string): string {
  return query.trim().toLowerCase();
}

/** Uploaded-files search: case-insensitive substring of the file name only. */
export function filterByFileName(files: FileRecord[], query: string): FileRecord[] {
  const q = needle(query);
  if (q === '') return files;
  return files.filter((f) => f.name.toLowerCase().includes(q));
}

/** Search results filter: file name, e-mail, location or status. */
export function filterSearchResults(files: FileRecord[], query: string): FileRecord[] {
  const q = needle(query);
  if (q === '') return files;
  return files.filter((f) =>
    [f.name, f.email, f.location, f.status].some((v) => v.toLowerCase().includes(q)),
  );
}

/** Users filter: e-mail only. */
export function filterUsersByEmail(rows: UserProductRow[], query: string): UserProductRow[] {
  const q = needle(query);
  if (q === '') return rows;
  return rows.filter((r) => r.email.toLowerCase().includes(q));
}

export function distinctCount(values: string[]): number {
  return new Set(values.map((v) => v.trim()).filter((v) => v !== '')).size;
}

/** A subscription is active while its end date is today or later (decisions section 4). */
export function isActiveSubscription(endDate: string, today: Date = new Date()): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(endDate.trim());
  if (!match) return false;
  const end = new Date(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
  const start = new Date(today.getFullYear(), today.getMonth(), today.getDate());
  return end.getTime() >= start.getTime();
}

export interface UserStats {
  totalUsers: number;
  activeSubscriptions: number;
  products: number;
}

export function userStats(rows: UserProductRow[], today: Date = new Date()): UserStats {
  return {
    totalUsers: distinctCount(rows.map((r) => r.email.toLowerCase())),
    activeSubscriptions: rows.filter(
      (r) => r.productName.trim() !== '' && isActiveSubscription(r.endDate, today),
    ).length,
    products: distinctCount(rows.map((r) => r.productName)),
  };
}

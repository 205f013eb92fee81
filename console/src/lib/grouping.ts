// Group assignment rules for Create File Groups (spec sections 4 and 5).
import type { FileRecord } from './records.ts';
import { isProcessed } from './status.ts';

export type Assignment = 'unassigned' | 'group1' | 'group2';
export type Assignments = Record<string, Assignment>;

/** A stable key for a file: its id when known, else name + status time. */
export function fileKey(file: FileRecord): string {
  return file.id !== null ? `id:${file.id}` : `name:${file.name}|${file.statusTime}`;
}

export function processedOnly(files: FileRecord[]): FileRecord[] {
  return files.filter((f) => isProcessed(f.status));
}

/** Choosing none clears the assignment. */
export function assign(current: Assignments, key: string, value: Assignment): Assignments {
  const next = { ...current };
  if (value === 'unassigned') delete next[key];
  else next[key] = value;
  return next;
}

/** After a refresh, keep assignments only for files still present. */
export function keepPresent(current: Assignments, files: FileRecord[]): Assignments {
  const present = new Set(files.map(fileKey));
  const next: Assignments = {};
  for (const [key, value] of Object.entries(current)) if (present.has(key)) next[key] = value;
  return next;
}

export function groupFiles(
  files: FileRecord[],
  assignments: Assignments,
): {
  group1: FileRecord[];
  group2: FileRecord[];
} {
  return {
    group1: files.filter((f) => assignments[fileKey(f)] === 'group1'),
    group2: files.filter((f) => assignments[fileKey(f)] === 'group2'),
  };
}

export function canSubmit(files: FileRecord[], assignments: Assignments): boolean {
  const { group1, group2 } = groupFiles(files, assignments);
  return group1.length > 0 && group2.length > 0;
}

/**
 * The admin search body that lists every file: from long before the product existed to two days
 * ahead (the end is exclusive, and two days cover any time zone), with no keyword or location.
 */
export function allFilesSearch(now: Date): {
  start_date: string;
  end_date: string;
  file_description: string;
  location: string;
} {
  const tomorrow = new Date(now.getTime() + 2 * 24 * 60 * 60 * 1000);
  return {
    start_date: '2000-01-01',
    end_date: tomorrow.toISOString().slice(0, 10),
    file_description: '',
    location: '',
  };
}

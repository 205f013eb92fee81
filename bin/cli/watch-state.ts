/**
 * What `watch` has done, kept in `OUT/.hivesight-watch.json` (written atomically) so that a
 * restart neither repeats finished work nor forgets failures. A file is known by its size and
 * mtime (fast path) and its content hash (a touched but unchanged file is not redone).
 */
import { createHash } from 'node:crypto';
import { createReadStream, promises as fs } from 'node:fs';
import path from 'node:path';
import type { ClassCounts } from '../../engine/vocabulary.ts';
import { writeAtomic } from './outputs.ts';

export const STATE_FILE = '.hivesight-watch.json';

export interface WatchedFile {
  size: number;
  mtimeMs: number;
  sha256: string;
  /** Output name: `<stem>.csv`, `<stem>.preview.jpg`. */
  stem: string;
  status: 'done' | 'failed';
  error?: string;
  counts?: ClassCounts;
  /** This file's row of summary.csv (the summary is rebuilt from these). */
  summaryRow?: string;
  finishedAt: string;
}

export interface WatchState {
  version: 1;
  /** Keyed by path relative to the watched folder. */
  files: Record<string, WatchedFile>;
  summaryHeader?: string;
}

export async function loadState(outDir: string): Promise<WatchState> {
  const file = path.join(outDir, STATE_FILE);
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { version: 1, files: {} };
    throw error;
  }
  try {
    const parsed = JSON.parse(text) as WatchState;
    if (parsed.version !== 1 || typeof parsed.files !== 'object' || parsed.files === null) {
      throw new Error('unknown layout');
    }
    return parsed;
  } catch {
    // A damaged state file only costs re-analysis; keep a copy for whoever wants to look.
    await fs.rename(file, `${file}.damaged`).catch(() => undefined);
    return { version: 1, files: {} };
  }
}

export async function saveState(outDir: string, state: WatchState): Promise<void> {
  await writeAtomic(path.join(outDir, STATE_FILE), `${JSON.stringify(state, null, 2)}\n`);
}

export async function sha256File(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** summary.csv from the rows of every finished file, in file-name order. */
export function summaryFromState(state: WatchState, header: string): string {
  const columns = fieldCount(header);
  const rows = Object.keys(state.files)
    .sort()
    .map((k) => state.files[k]!.summaryRow)
    .filter((r): r is string => Boolean(r))
    // A row kept from before columns were appended gets empty cells for them.
    .map((r) => r + ','.repeat(Math.max(0, columns - fieldCount(r))));
  return `${[header, ...rows].join('\n')}\n`;
}

/** Fields in one CSV row (commas inside double quotes do not separate). */
function fieldCount(row: string): number {
  let fields = 1;
  let quoted = false;
  for (const ch of row) {
    if (ch === '"') quoted = !quoted;
    else if (ch === ',' && !quoted) fields++;
  }
  return fields;
}

/** Splits a one-file summary CSV into its header and its row. */
export function splitSummary(csv: string): { header: string; row: string } {
  const lines = csv.replace(/\r\n/g, '\n').trimEnd().split('\n');
  return { header: lines[0] ?? '', row: lines.slice(1).join('\n') };
}

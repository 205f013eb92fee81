/**
 * Media retention (decisions.md 2): video media is deleted MEDIA_RETENTION_HOURS after it was
 * processed (or failed); counts, frames and reports stay, and the media link becomes empty.
 * Pictures are kept. Also clears what a crashed process can leave behind: partial uploads in
 * incoming/, and media or previews written just before the row that would name them (a kill -9
 * between the two). Only files older than STALE_MS are touched, so work in flight is safe.
 * Run every minute by the retention schedule (retention-schedule.ts).
 */
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Db } from '../db.ts';
import type { Clock } from '../clock.ts';
import type { StoredNameColumn } from './files-repository.ts';
import { filesRepository } from './files-repository.ts';
import { mediaDirs, removeQuietly, storedPath } from './storage.ts';
import { sweepStills } from '../corrections/retention.ts';

const STALE_MS = 6 * 3600_000;
/** Names checked against the files table per query. */
const NAMES_PER_QUERY = 500;

export async function sweepRetention(
  db: Db,
  opts: { dataDir: string; retentionHours: number; clock: Clock },
): Promise<number> {
  const now = opts.clock.now();
  const cutoff = new Date(now.getTime() - opts.retentionHours * 3600_000);
  const dirs = mediaDirs(opts.dataDir);
  const files = filesRepository(db);
  let deleted = 0;
  for (const row of await files.mediaDueForDeletion(cutoff)) {
    await removeQuietly(storedPath(dirs.media, row.stored_name));
    deleted += await files.markMediaDeleted(row.id, now);
  }
  await sweepIncoming(dirs.incoming, now.getTime());
  await sweepUnreferenced(db, dirs.media, 'stored_name', now.getTime());
  await sweepUnreferenced(db, dirs.previews, 'preview_name', now.getTime());
  await sweepUnreferenced(db, dirs.honeybeePreviews, 'preview_name', now.getTime());
  await sweepUnreferenced(db, dirs.hornetPreviews, 'preview_name', now.getTime());
  await sweepStills(db, opts);
  return deleted;
}

async function staleFiles(dir: string, nowMs: number): Promise<string[]> {
  const names = await readdir(dir).catch(() => [] as string[]);
  const stale: string[] = [];
  for (const name of names) {
    const info = await stat(path.join(dir, name)).catch(() => null);
    if (info?.isFile() && nowMs - info.mtimeMs > STALE_MS) stale.push(name);
  }
  return stale;
}

async function sweepIncoming(dir: string, nowMs: number): Promise<void> {
  for (const name of await staleFiles(dir, nowMs)) await removeQuietly(path.join(dir, name));
}

/** Removes stale files of `dir` that no files row names in `column`. */
async function sweepUnreferenced(
  db: Db,
  dir: string,
  column: StoredNameColumn,
  nowMs: number,
): Promise<void> {
  const stale = await staleFiles(dir, nowMs);
  for (let i = 0; i < stale.length; i += NAMES_PER_QUERY) {
    const batch = stale.slice(i, i + NAMES_PER_QUERY);
    const keep = await filesRepository(db).namesInUse(column, batch);
    for (const name of batch) {
      if (!keep.has(name)) await removeQuietly(path.join(dir, name));
    }
  }
}

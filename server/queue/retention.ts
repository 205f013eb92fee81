/**
 * Media retention (decisions.md 2): video media is deleted MEDIA_RETENTION_HOURS after it was
 * processed (or failed); counts, frames and reports stay, and the media link becomes empty.
 * Pictures are kept. Also clears partial uploads a crashed process left in incoming/.
 */
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Knex } from 'knex';
import type { Clock } from '../clock.ts';
import { typed } from '../files/access.ts';
import { mediaDirs, removeQuietly, storedPath } from '../files/storage.ts';

const STALE_INCOMING_MS = 6 * 3600_000;

export async function sweepRetention(
  db: Knex,
  opts: { dataDir: string; retentionHours: number; clock: Clock },
): Promise<number> {
  const now = opts.clock.now();
  const cutoff = new Date(now.getTime() - opts.retentionHours * 3600_000).toISOString();
  const dirs = mediaDirs(opts.dataDir);
  const due = await typed<Array<{ id: number; stored_name: string }>>(
    db('files')
      .where('kind', 'video')
      .whereNull('media_deleted_at')
      .whereIn('status', ['PROCESSED', 'FAILED'])
      .andWhere('status_time', '<=', cutoff)
      .select('id', 'stored_name'),
  );
  let deleted = 0;
  for (const row of due) {
    await removeQuietly(storedPath(dirs.media, row.stored_name));
    deleted += await db('files')
      .where('id', row.id)
      .whereNull('media_deleted_at')
      .update({ media_deleted_at: now.toISOString() });
  }
  await sweepIncoming(dirs.incoming, now.getTime());
  return deleted;
}

async function sweepIncoming(dir: string, nowMs: number): Promise<void> {
  const names = await readdir(dir).catch(() => [] as string[]);
  for (const name of names) {
    const file = path.join(dir, name);
    const info = await stat(file).catch(() => null);
    if (info?.isFile() && nowMs - info.mtimeMs > STALE_INCOMING_MS) await removeQuietly(file);
  }
}

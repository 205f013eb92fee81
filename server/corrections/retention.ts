/**
 * Stills under media retention (issue 46): a corrected video frame's still outlives the video
 * only when its owner consents to training use; otherwise it goes when the video's media does
 * (its labels and counts stay, its still_name becomes ''). Stills no corrected frame names (the
 * cache of frames opened but never saved, or of deleted files) go once older than the retention
 * time. Run by the retention sweep.
 */
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Knex } from 'knex';
import type { Clock } from '../clock.ts';
import { typed } from '../db.ts';
import { removeQuietly } from '../files/storage.ts';
import { removeStill, stillsDir } from './stills.ts';

const NAMES_PER_QUERY = 500;

export async function sweepStills(
  db: Knex,
  opts: { dataDir: string; retentionHours: number; clock: Clock },
): Promise<void> {
  const erased = await typed<Array<{ id: number; still_name: string }>>(
    db('corrected_frames')
      .join('files', 'files.id', 'corrected_frames.file_id')
      .join('users', 'users.id', 'files.user_id')
      .where('files.kind', 'video')
      .whereNotNull('files.media_deleted_at')
      .whereNull('users.training_consent_at')
      .andWhere('corrected_frames.still_name', '<>', '')
      .select('corrected_frames.id', 'corrected_frames.still_name'),
  );
  for (const row of erased) {
    await removeStill(opts.dataDir, row.still_name);
    await db('corrected_frames').where('id', row.id).update({ still_name: '' });
  }

  const dir = stillsDir(opts.dataDir);
  const cutoff = opts.clock.now().getTime() - opts.retentionHours * 3600_000;
  const old: string[] = [];
  for (const name of await readdir(dir).catch(() => [] as string[])) {
    const info = await stat(path.join(dir, name)).catch(() => null);
    if (info?.isFile() && info.mtimeMs < cutoff) old.push(name);
  }
  for (let i = 0; i < old.length; i += NAMES_PER_QUERY) {
    const batch = old.slice(i, i + NAMES_PER_QUERY);
    const stills = batch.map((n) => n.replace(/\.[a-z]+$/, '.jpg'));
    const named = await typed<Array<{ still_name: string }>>(
      db('corrected_frames')
        .whereIn('still_name', [...new Set(stills)])
        .select('still_name'),
    );
    const keep = new Set(named.map((r) => r.still_name));
    for (const [k, name] of batch.entries()) {
      if (!keep.has(stills[k]!)) await removeQuietly(path.join(dir, name));
    }
  }
}

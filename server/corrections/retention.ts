/**
 * Stills under media retention (issue 46): a corrected video frame's still outlives the video
 * only when its owner consents to training use; otherwise it goes when the video's media does
 * (its labels and counts stay, its still_name becomes ''). Stills no corrected frame names (the
 * cache of frames opened but never saved, or of deleted files) go once older than the retention
 * time. Run by the retention sweep.
 */
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Clock } from '../clock.ts';
import type { Db } from '../db.ts';
import { removeQuietly } from '../files/storage.ts';
import { removeStill, stillsDir } from './stills.ts';
import { forgetStill, stillNamesInUse, stillsPastTheirVideo } from './corrections-repository.ts';

const NAMES_PER_QUERY = 500;

export async function sweepStills(
  db: Db,
  opts: { dataDir: string; retentionHours: number; clock: Clock },
): Promise<void> {
  const erased = await stillsPastTheirVideo(db);
  for (const row of erased) {
    await removeStill(opts.dataDir, row.still_name);
    await forgetStill(db, row.id);
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
    const keep = await stillNamesInUse(db, stills);
    for (const [k, name] of batch.entries()) {
      if (!keep.has(stills[k]!)) await removeQuietly(path.join(dir, name));
    }
  }
}

/** One hive's accuracy figure (accuracy.ts) from the owner's corrected frames at a location. */
import type { Knex } from 'knex';
import { typed } from '../db.ts';
import { accuracySentence, hiveAccuracy, MIN_FRAMES } from './accuracy.ts';
import type { FramePair } from './accuracy.ts';

export async function accuracyOf(db: Knex, ownerId: number, location: string) {
  const rows = await typed<Array<{ labels_json: string; model_json: string }>>(
    db('corrected_frames')
      .join('files', 'files.id', 'corrected_frames.file_id')
      .where('files.user_id', ownerId)
      .andWhere('files.location', location)
      .select('corrected_frames.labels_json', 'corrected_frames.model_json'),
  );
  const frames: FramePair[] = rows.map((r) => ({
    labels: JSON.parse(r.labels_json) as FramePair['labels'],
    model: JSON.parse(r.model_json) as FramePair['model'],
  }));
  const a = hiveAccuracy(frames);
  return {
    location,
    frames: a.frames,
    min_frames: MIN_FRAMES,
    enough: a.enough,
    insects: a.insects,
    count_error_pct: a.enough ? a.countErrorPct : null,
    found_pct: a.enough ? a.foundPct : null,
    sentence: accuracySentence(a),
  };
}

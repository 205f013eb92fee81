/** One hive's accuracy figure (accuracy.ts) from the owner's corrected frames at a location. */
import type { Db } from '../db.ts';
import { labelPairsAt } from './corrections-repository.ts';
import { accuracySentence, hiveAccuracy, MIN_FRAMES } from './accuracy.ts';
import type { FramePair } from './accuracy.ts';

export async function accuracyOf(db: Db, ownerId: number, location: string) {
  const rows = await labelPairsAt(db, ownerId, location);
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

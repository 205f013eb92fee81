/**
 * What corrected frames change in their file's row: each corrected frame's labels become its
 * counts and bee coverage in `frames_json`, and a photo's labels its `counts_json` and coverage
 * (a video's unique-insect counts come from tracks and stay the model's). Used when a correction
 * is saved, and when a video is analysed again (count again): the new analysis writes the
 * model's counts for every frame, and the corrections are laid over them again in the same
 * transaction, so a corrected frame never reads back as the model's.
 */
import type { Detection } from '../../engine/vocabulary.ts';
import { beeCoverage } from '../../engine/vocabulary.ts';
import type { DbOrTx } from '../db.ts';
import type { FileRow } from '../files/file-row.ts';
import { rowCounts, rowFrames, rowSummary } from '../files/file-row.ts';
import type { Label } from './labels.ts';
import { labelCounts } from './labels.ts';
import { correctionRows, updateFileFromCurrent } from './corrections-repository.ts';

/** One corrected frame: its index, labels and the still's size they are drawn on. */
export interface FrameLabels {
  index: number;
  labels: readonly Label[];
  width: number;
  height: number;
}

/** The columns of `row` to write so that `corrected` are its frames' counts. */
export function correctedColumns(
  row: FileRow,
  corrected: readonly FrameLabels[],
): Record<string, string> {
  const byIndex = new Map(corrected.map((c) => [c.index, c]));
  const frames = rowFrames(row).map((f) => {
    const c = byIndex.get(f.index);
    if (!c) return f;
    return {
      ...f,
      counts: labelCounts(c.labels, f.counts),
      beeCoveragePct: beeCoverage(
        c.labels.map((l): Detection => ({ cls: l.cls, score: 1, box: l.box })),
        c.width,
        c.height,
      ),
    };
  });
  const update: Record<string, string> = { frames_json: JSON.stringify(frames) };
  const photo = byIndex.get(0);
  if (row.kind === 'image' && photo) {
    update.counts_json = JSON.stringify(labelCounts(photo.labels, rowCounts(row) ?? undefined));
    // A photo's coverage is its one frame's.
    const summary = rowSummary(row);
    const frame = frames.find((f) => f.index === 0);
    if (summary && frame)
      update.summary_json = JSON.stringify({ ...summary, beeCoveragePct: frame.beeCoveragePct });
  }
  return update;
}

/** Lays the file's saved corrections over its current counts (in the caller's transaction). */
export async function reapplyCorrections(trx: DbOrTx, fileId: number): Promise<void> {
  const rows = await correctionRows(trx, fileId);
  if (rows.length === 0) return;
  const corrected = rows.map((r) => ({
    index: Number(r.frame_index),
    labels: JSON.parse(r.labels_json) as Label[],
    width: Number(r.width),
    height: Number(r.height),
  }));
  await updateFileFromCurrent(trx, fileId, (file) => correctedColumns(file, corrected));
}

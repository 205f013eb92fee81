/**
 * Which frames of a file can be corrected, and the corrected_frames rows. A photo has one frame
 * (index 0); a video offers every sampled frame while its media is kept (the busiest one is the
 * preview frame), and afterwards only the frames already corrected, whose stills are kept.
 */
import type { Db } from '../db.ts';
import type { ClassCounts } from '../../engine/vocabulary.ts';
import type { FileRow, StoredFrame } from '../files/file-row.ts';
import { hasMedia, rowFrames } from '../files/file-row.ts';
import type { Label } from './labels.ts';
import type { StillInfo } from './stills.ts';
import type { CorrectionRow } from './corrections-repository.ts';
import { correctionRow, correctionRows } from './corrections-repository.ts';

export type FrameSource = 'photo' | 'preview' | 'sampled';

export interface FrameEntry {
  index: number;
  timeS: number;
  source: FrameSource;
}

export interface Correction {
  id: number;
  fileId: number;
  index: number;
  timeS: number;
  stillName: string;
  width: number;
  height: number;
  labels: Label[];
  model: StillInfo['detections'];
  authorId: number;
  editedBy: number | null;
  reviewed: boolean;
  createdAt: string;
  updatedAt: string;
}

export function toCorrection(r: CorrectionRow): Correction {
  return {
    id: Number(r.id),
    fileId: Number(r.file_id),
    index: Number(r.frame_index),
    timeS: Number(r.time_s),
    stillName: r.still_name,
    width: Number(r.width),
    height: Number(r.height),
    labels: JSON.parse(r.labels_json) as Label[],
    model: JSON.parse(r.model_json) as StillInfo['detections'],
    authorId: Number(r.author_id),
    editedBy: r.edited_by === null ? null : Number(r.edited_by),
    reviewed: Boolean(r.reviewed),
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

export async function correctionsOf(db: Db, fileId: number): Promise<Correction[]> {
  const rows = await correctionRows(db, fileId);
  return rows.map(toCorrection);
}

export async function correctionOf(
  db: Db,
  fileId: number,
  index: number,
): Promise<Correction | null> {
  const row = await correctionRow(db, fileId, index);
  return row ? toCorrection(row) : null;
}

const honeybees = (c: ClassCounts) => (c.bee ?? 0) + (c.pollen ?? 0) + (c.drone ?? 0);

/** The frames a file offers for correction now (see the module comment). */
export function availableFrames(row: FileRow, corrected: ReadonlySet<number>): FrameEntry[] {
  if (row.status !== 'PROCESSED') return [];
  const stored = rowFrames(row);
  if (row.kind === 'image') return [{ index: 0, timeS: 0, source: 'photo' }];
  let busiest: StoredFrame | undefined;
  for (const f of stored)
    if (!busiest || honeybees(f.counts) > honeybees(busiest.counts)) busiest = f;
  const kept = hasMedia(row);
  return stored
    .filter((f) => kept || corrected.has(f.index))
    .map((f) => ({
      index: f.index,
      timeS: f.timeS,
      source: f === busiest ? 'preview' : 'sampled',
    }));
}

/**
 * The still of the frame the preview shows, without its boxes (the entrance editor draws on
 * it), while the file's media is kept to decode it from; else null.
 */
export function cleanStillUrl(row: FileRow): string | null {
  if (!hasMedia(row)) return null;
  const frame = availableFrames(row, new Set()).find((f) => f.source !== 'sampled');
  return frame ? `/api/files/${row.id}/frames/${frame.index}/still.jpg` : null;
}

/**
 * A row of the files table as the database holds it (SCHEMA.md), the JSON its result columns
 * hold, and how those columns are read back.
 */
import type { Box, ClassCounts, ProductClass } from '../../engine/index.ts';
import type { CalibrationNote, Entrance, ResultQuality } from '../../engine/vocabulary.ts';
import type { StoredTraffic } from '../locations/traffic.ts';

export type FileStatus = 'UPLOADED' | 'QUEUED' | 'PROCESSING' | 'PROCESSED' | 'FAILED';
export type FileKind = 'image' | 'video';

export interface FileRow {
  id: number;
  user_id: number;
  original_name: string;
  stored_name: string;
  kind: FileKind;
  format: string;
  size_bytes: number;
  description: string;
  location: string;
  status: FileStatus;
  status_reason: string | null;
  status_time: string;
  created_at: string;
  processed_at: string | null;
  media_deleted_at: string | null;
  /** When the file was first finished; media retention counts from it (0031). */
  retention_from?: string | null;
  counts_json: string | null;
  summary_json: string | null;
  frames_json: string | null;
  /** Each analysed frame's detections as counted (0032); null for files analysed before. */
  detections_json?: string | null;
  preview_name: string | null;
}

/** One analysed frame's detections as counted, in source pixels (files.detections_json). */
export interface StoredFrameDetections {
  index: number;
  detections: Array<{ cls: ProductClass; score: number; box: Box }>;
}

/** One analysed frame as stored in files.frames_json (its detections: detections_json). */
export interface StoredFrame {
  index: number;
  timeS: number;
  counts: ClassCounts;
  beeCoveragePct: number;
}

/** files.summary_json. */
export interface StoredSummary {
  durationS: number;
  width: number;
  height: number;
  framesAnalysed: number;
  sampleFps: number;
  beeCoveragePct: number;
  model: {
    name: string;
    version: string;
    classes: ProductClass[];
    /** The card's alert scores (hornet alerts judge with the model that analysed the file). */
    alertScores?: Partial<Record<ProductClass, number>>;
  };
  timing: { decodeMs: number; inferenceMs: number; trackingMs: number; totalMs: number };
  analysedAt: string;
  /** The result's quality grade, reason and signals (absent for results analysed before it). */
  quality?: ResultQuality;
  /** A honeybee-only preview was stored beside the full one (MediaDirs.honeybeePreviews). */
  honeybeePreview?: boolean;
  /** Seconds into the clip of the stored hornet frame (MediaDirs.hornetPreviews), if any. */
  hornetPreviewTimeS?: number;
  /** Each hornet track's hits (seconds into the clip, score), which hornet alerts judge. */
  hornetTracks?: StoredHornetTrack[];
  /** Entrance traffic, when the file's location had an entrance at analysis (issue 43). */
  traffic?: StoredTraffic;
  /** The video container's creation time (ISO UTC), when it records one. */
  recordedAt?: string;
  /** An entrance proposed from where this video's tracks start and end, if any cluster. */
  entranceProposal?: { entrance: Entrance; trackEnds: number; of: number };
  /** The location's calibration the file was analysed with (issue 58), when one was. */
  calibration?: CalibrationNote;
}

export interface StoredHornetTrack {
  hits: Array<{ timeS: number; score: number }>;
}

function parseJson<T>(text: string | null): T | null {
  if (text === null) return null;
  try {
    return JSON.parse(text) as T;
  } catch {
    return null;
  }
}

export const rowCounts = (row: FileRow): ClassCounts | null =>
  parseJson<ClassCounts>(row.counts_json);
export const rowFrames = (row: FileRow): StoredFrame[] =>
  parseJson<StoredFrame[]>(row.frames_json) ?? [];
export const rowSummary = (row: FileRow): StoredSummary | null =>
  parseJson<StoredSummary>(row.summary_json);
/** The detections counted on frame `index`, or null where they were not kept. */
export const rowFrameDetections = (
  row: FileRow,
  index: number,
): StoredFrameDetections['detections'] | null =>
  parseJson<StoredFrameDetections[]>(row.detections_json ?? null)?.find((f) => f.index === index)
    ?.detections ?? null;

export function hasMedia(row: Pick<FileRow, 'media_deleted_at'>): boolean {
  return row.media_deleted_at === null;
}

/** PostgreSQL answers bigint/int columns as strings in some drivers: make them numbers. */
export function normaliseFileRow<T extends FileRow>(row: T): T {
  return {
    ...row,
    id: Number(row.id),
    user_id: Number(row.user_id),
    size_bytes: Number(row.size_bytes),
  };
}

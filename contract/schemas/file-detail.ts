/** One file as GET /api/files/:id answers it (and the upload, under `file`). */
import { z } from 'zod';
import { calibrationNote } from './calibration.ts';
import { classCounts, fileStatus, isoTime, mediaKind, productClass } from './common.ts';
import { fileTraffic } from './traffic.ts';
import type { Cells } from '../records.ts';
import { FILE_RECORD_FIELDS, SEARCH_RECORD_FIELDS } from '../records.ts';

/** A positional record's schema: one string a field, each described by its name. */
function recordOf<F extends readonly string[]>(fields: F, id: string): z.ZodType<Cells<F>> {
  const cells = fields.map((field) => z.string().describe(field));
  return z.tuple(cells as [z.ZodString, ...z.ZodString[]]).meta({ id }) as z.ZodType as z.ZodType<
    Cells<F>
  >;
}

/** The spec's positional file record: [name, status, media_url, report_url, location, status_time]. */
export const fileRecord = recordOf(FILE_RECORD_FIELDS, 'FileRecord');
/** The admin search's record: the file record and the owner's e-mail. */
export const searchRecord = recordOf(SEARCH_RECORD_FIELDS, 'SearchRecord');

export const qualityGrade = z.enum(['good', 'uncertain', 'poor']);

/** What a quality grade is judged from; null where the result has too little to judge by. */
export const qualitySignals = z.object({
  sizeRatio: z.number().nullable(),
  zoom: z.number(),
  scoreRatio: z.number().nullable(),
  weakShare: z.number().nullable(),
  sharpness: z.number().nullable(),
  brightness: z.number().nullable(),
  clippedShare: z.number().nullable(),
  shortTrackShare: z.number().nullable(),
});

export const modelIdentity = z.object({
  name: z.string(),
  version: z.string(),
  classes: z.array(productClass),
  /** The score a box of the class needs to count towards an alert (the card's thresholds.alert). */
  alertScores: z.partialRecord(productClass, z.number()).optional(),
});

/** The stored analysis summary as any viewer may read it (no research data). */
export const fileSummary = z.object({
  durationS: z.number(),
  width: z.number(),
  height: z.number(),
  framesAnalysed: z.number(),
  sampleFps: z.number(),
  beeCoveragePct: z.number(),
  model: modelIdentity,
  timing: z.object({
    decodeMs: z.number(),
    inferenceMs: z.number(),
    trackingMs: z.number(),
    totalMs: z.number(),
  }),
  analysedAt: z.string(),
  quality: z
    .object({ grade: qualityGrade, reason: z.string(), signals: qualitySignals })
    .optional(),
  recordedAt: z.string().optional(),
  calibration: calibrationNote.optional(),
});

export const detailFrame = z.object({
  index: z.number().int(),
  time_s: z.number(),
  counts: classCounts,
  bee_coverage_pct: z.number(),
});
export type DetailFrame = z.infer<typeof detailFrame>;

export const fileDetail = z
  .object({
    id: z.number().int(),
    name: z.string(),
    kind: mediaKind,
    format: z.string(),
    size_bytes: z.number().int(),
    description: z.string(),
    location: z.string(),
    status: fileStatus,
    status_reason: z.string().nullable(),
    status_time: isoTime,
    created_at: isoTime,
    processed_at: isoTime.nullable(),
    media_deleted_at: isoTime.nullable(),
    media_url: z.string().describe('Empty once the media was erased'),
    report_url: z.string(),
    preview_url: z.string().nullable(),
    summary_url: z.string(),
    counts: classCounts.nullable(),
    counts_are: z.string().describe('What counts are: unique insects, or detections'),
    on_screen: z
      .object({ what: z.string(), mean_honeybees: z.number(), peak_honeybees: z.number() })
      .nullable()
      .describe('Honeybees per sampled frame'),
    quality: z.object({ grade: qualityGrade, reason: z.string() }).nullable(),
    research_plan: z.boolean().describe('Whether the owner’s plan shows wasps and hornets'),
    bee_coverage_pct: z.number().nullable(),
    summary: fileSummary.nullable(),
    model: modelIdentity.nullable(),
    frames: z.array(detailFrame),
    record: fileRecord,
    recorded_at: isoTime.nullable(),
    traffic: fileTraffic.nullable().describe('Null when no entrance was set for the analysis'),
  })
  .meta({ id: 'FileDetail' });
export type FileDetail = z.infer<typeof fileDetail>;

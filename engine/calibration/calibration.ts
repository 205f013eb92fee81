/**
 * A location's calibration (issue 58): the honeybee score threshold, the zoom and, where a
 * location's corrected frames showed a bias, the pollen and drone thresholds that the detector
 * runs with at that location instead of its card's. Fitted by `fitCalibration` on one owner's
 * corrected frames; carried as JSON (the server's table, `hivesight --calibration FILE`), so it
 * is validated on every read.
 */
import { z } from 'zod';
import type { CalibrationNote, ProductClass } from '../types.ts';

export type { CalibrationNote };

export const CALIBRATION_VERSION = 1;

export const CalibrationThresholdsSchema = z.strictObject({
  /** Score threshold of the honeybee classes (bee, pollen, drone) unless overridden below. */
  honeybee: z.number().min(0).max(1),
  pollen: z.number().min(0).max(1).optional(),
  drone: z.number().min(0).max(1).optional(),
});

/** The leave-one-frame-out count errors behind a calibration: what the owner is shown. */
export const CalibrationGainSchema = z.strictObject({
  frames: z.number().int().positive(),
  /** Pooled |model - corrected| / corrected over the frames, percent, at the card's settings. */
  uncalibrated_count_error_pct: z.number().min(0),
  /** The same with each frame's calibration fitted on the other frames alone. */
  calibrated_count_error_pct: z.number().min(0),
  /** Twice the standard error of the gain over the frames, percent: the noise. */
  noise_pct: z.number().min(0),
  /** Whether the gain exceeds the noise; a calibration inside the noise is not applied. */
  significant: z.boolean(),
});

export const CalibrationSchema = z.strictObject({
  version: z.literal(CALIBRATION_VERSION),
  /** The location's name, as its owner wrote it. */
  location: z.string().min(1).max(200),
  /** Corrected frames it was fitted on, and the files they come from. */
  frames: z.number().int().min(1),
  files: z.number().int().min(1),
  /** Day of the fit, YYYY-MM-DD. */
  date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  /** The model it was fitted for: another model's scores mean other thresholds. */
  model: z.strictObject({ name: z.string(), version: z.string() }),
  /** The zoom frames are decoded at (as auto-zoom's), or null to leave auto-zoom to judge. */
  zoom: z.number().min(0.25).max(4).nullable(),
  thresholds: CalibrationThresholdsSchema,
  gain: CalibrationGainSchema,
});

export type Calibration = z.infer<typeof CalibrationSchema>;
export type CalibrationThresholds = z.infer<typeof CalibrationThresholdsSchema>;
export type CalibrationGain = z.infer<typeof CalibrationGainSchema>;

export function calibrationLabel(c: Pick<Calibration, 'location' | 'frames' | 'date'>): string {
  const frames = c.frames === 1 ? '1 corrected frame' : `${c.frames} corrected frames`;
  return `Calibrated for ${c.location} on ${frames} (${c.date})`;
}

export function calibrationNote(c: Calibration): CalibrationNote {
  return { location: c.location, frames: c.frames, date: c.date, label: calibrationLabel(c) };
}

/** Parses a calibration (a file's or a column's JSON), naming what is wrong. */
export function parseCalibration(value: unknown): Calibration {
  const parsed = CalibrationSchema.safeParse(value);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`);
  throw new CalibrationFormatError(`Not a calibration: ${problems.join('; ')}.`);
}

export class CalibrationFormatError extends Error {
  override name = 'CalibrationFormatError';
}

/** Per-class score thresholds as the detector keeps them: the card's, then the calibration's. */
export interface ClassThresholds {
  score: number;
  perClass: Partial<Record<ProductClass, number>>;
}

/** The card's thresholds with a calibration's honeybee and per-type thresholds laid over them. */
export function calibratedThresholds(
  card: ClassThresholds,
  thresholds: CalibrationThresholds,
): ClassThresholds {
  const { honeybee, pollen, drone } = thresholds;
  return {
    score: card.score,
    perClass: {
      ...card.perClass,
      bee: honeybee,
      pollen: pollen ?? honeybee,
      drone: drone ?? honeybee,
    },
  };
}

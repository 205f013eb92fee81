/**
 * A location's calibration (issue 58) as its page shows it: whether it can be fitted, the fit's
 * state, its leave-one-frame-out count errors with and without, and whether it is applied.
 */
import { z } from 'zod';
import { locationRef } from './common.ts';

export const calibrationGain = z.object({
  frames: z.number().int(),
  uncalibrated_count_error_pct: z.number(),
  calibrated_count_error_pct: z.number(),
  noise_pct: z.number().describe('Twice the standard error of the gain over the frames'),
  significant: z.boolean().describe('Whether the gain is beyond the noise'),
});

export const calibrationAnswer = z.object({
  location: locationRef,
  corrected_frames: z.number().int(),
  corrected_files: z.number().int(),
  min_frames: z.number().int(),
  min_files: z.number().int(),
  /** Why a calibration cannot be fitted now, or null when it can. */
  why_not: z.string().nullable(),
  state: z.enum(['none', 'queued', 'fitting', 'ready', 'failed']),
  error: z.string().nullable(),
  enabled: z.boolean().describe('The owner’s switch'),
  applied: z.boolean().describe('Whether later analyses here run with it'),
  label: z.string().nullable().describe('"Calibrated for … on N corrected frames (date)"'),
  gain: calibrationGain.nullable(),
  sentence: z.string().nullable().describe('The gain in words, or why it is not applied'),
  parameters: z
    .object({
      zoom: z.number().nullable(),
      thresholds: z.object({
        honeybee: z.number(),
        pollen: z.number().optional(),
        drone: z.number().optional(),
      }),
    })
    .nullable(),
  /**
   * The location's files whose counts were made with another calibration than the one applied
   * now (or with one, now that none is), media still kept: "Count again with the calibration".
   */
  recount: z.object({
    files: z.array(
      z.object({ file_id: z.number().int(), name: z.string(), created_at: z.string() }),
    ),
    uploads_left_today: z.number().int(),
  }),
});
export type CalibrationAnswer = z.infer<typeof calibrationAnswer>;

/** What a result says of the calibration it was analysed with. */
export const calibrationNote = z.object({
  location: z.string(),
  frames: z.number().int(),
  date: z.string(),
  label: z.string(),
});

/**
 * A hive location's history (issue 43): one point per processed file of the location, at its
 * recording time, and the query that bounds it.
 */
import { z } from 'zod';
import { entrance, isCalendarDay, isoTime, locationRef, mediaKind } from './common.ts';
import { countConfidence } from './traffic.ts';

export const historyPoint = z
  .object({
    file_id: z.number().int(),
    name: z.string(),
    kind: mediaKind,
    recorded_at: isoTime,
    time_source: z.enum(['container', 'upload']).describe('Where recorded_at comes from'),
    duration_s: z.number(),
    honeybees: z.number().describe('Unique honeybees (a video’s tracks, a picture’s detections)'),
    unique_bees_per_minute: z.number().nullable().describe('Null for a picture'),
    bees_in: z.number().nullable().describe('Null where no entrance was set at analysis'),
    bees_out: z.number().nullable(),
    net_flow: z.number().nullable(),
    loops: z.number().nullable(),
    in_per_minute: z.number().nullable(),
    out_per_minute: z.number().nullable(),
    pollen_pct: z.number().nullable(),
    drones_pct: z.number().nullable(),
    entrance_bees: z
      .number()
      .nullable()
      .describe('Honeybees near the entrance per analysed frame (FileTraffic.density.mean_near)'),
    entrance_bees_peak: z.number().nullable(),
    count_confidence: countConfidence.nullable(),
  })
  .meta({ id: 'HistoryPoint' });
export type HistoryPoint = z.infer<typeof historyPoint>;

function day(field: 'from' | 'to') {
  const message = `The ${field === 'from' ? 'start' : 'end'} date must be a real day written YYYY-MM-DD.`;
  return z
    .string({ error: message })
    .refine((v) => v === '' || isCalendarDay(v), { message })
    .optional()
    .describe('Inclusive day, YYYY-MM-DD, in tz');
}

const ZONE_MESSAGE = 'The time zone must be an IANA name, such as Europe/Paris.';

function isTimeZone(value: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

/** `?from=&to=&tz=`, all optional, from not after to. */
export const historyQuery = z
  .object({
    from: day('from'),
    to: day('to'),
    tz: z
      .string({ error: ZONE_MESSAGE })
      .refine((v) => v === '' || isTimeZone(v), { message: ZONE_MESSAGE })
      .optional()
      .describe('The IANA zone the days are calendar days in (default UTC)'),
  })
  .refine((q) => !q.from || !q.to || q.from <= q.to, {
    path: ['from'],
    message: 'The start date needs to be before the end date.',
  });
export type HistoryQuery = z.infer<typeof historyQuery>;

export const historyRange = z.object({
  from: z.string().nullable(),
  to: z.string().nullable(),
  timeZone: z.string(),
});
export type HistoryRange = z.infer<typeof historyRange>;

/** The videos of the range whose entrance density is known, taken together. */
export const historyPeriod = z
  .object({
    videos: z.number().int(),
    entrance_bees: z.number().describe('Their entrance_bees, weighted by their length'),
    entrance_bees_peak: z.number(),
    confidence: countConfidence.nullable().describe('The benchmark at entrance_bees'),
    levels: z
      .object({ close: z.number().int(), fair: z.number().int(), rough: z.number().int() })
      .describe('How many of the videos’ counts are close, fair and rough ones'),
  })
  .meta({ id: 'HistoryPeriod' });
export type HistoryPeriod = z.infer<typeof historyPeriod>;

export const historyAnswer = z
  .object({
    location: locationRef,
    entrance: entrance.nullable(),
    range: historyRange,
    points: z.array(historyPoint).describe('Oldest first'),
    period: historyPeriod.nullable().describe('Null when no video of the range has a density'),
  })
  .meta({ id: 'HistoryAnswer' });
export type HistoryAnswer = z.infer<typeof historyAnswer>;

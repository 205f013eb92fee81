/** Entrance traffic of one video, as GET /api/files/:id answers it (issue 43). */
import { z } from 'zod';
import { entrance, productClass } from './common.ts';

export const minuteTraffic = z.object({
  minute: z.number().int().describe('0 for the video’s first minute'),
  start_s: z.number(),
  end_s: z.number().describe('The end of the minute, or of the video within its last minute'),
  in: z.number().int(),
  out: z.number().int(),
  loops: z.number().int(),
});
export type MinuteTraffic = z.infer<typeof minuteTraffic>;

const passages = z.object({ in: z.number().int(), out: z.number().int(), loops: z.number().int() });

export const trafficEvent = z.object({
  kind: z.enum(['in', 'out', 'loop']),
  cls: productClass,
  time_s: z.number(),
});

export const entranceDensity = z
  .object({
    mean_near: z
      .number()
      .describe(
        'Honeybees detected within four bee lengths of the entrance per analysed frame, on average',
      ),
    peak_near: z.number().int().describe('The same on the busiest analysed frame'),
  })
  .meta({ id: 'EntranceDensity' });
export type EntranceDensity = z.infer<typeof entranceDensity>;

const passageScore = z.object({
  precision: z.number().describe('Share of the passages counted that really happened'),
  recall: z.number().describe('Share of the real passages that were counted'),
  passages: z.number().int().describe('Real passages the benchmark held the count to'),
});

/**
 * How far the count can be trusted at the video's density: the synthetic entrance benchmark's
 * crossing precision and recall at the density band nearest the video's (exact truth, both
 * cameras pooled).
 */
export const countConfidence = z
  .object({
    level: z
      .enum(['close', 'fair', 'rough'])
      .describe('close: every figure at least 0.85; fair: at least 0.7; rough: below'),
    leans: z
      .enum(['under', 'over'])
      .nullable()
      .describe('Which way the count errs at this density: fewer or more passages than real'),
    crowding: z.enum(['quiet', 'busy', 'crowded']).describe('The benchmark band’s name'),
    scene_bees: z.number().int().describe('Bees in the benchmark’s scene at once'),
    band_near: z.number().describe('The band’s own mean_near'),
    sample_fps: z.number(),
    in: passageScore,
    out: passageScore,
    source: z.string().describe('The benchmark, its feed and the day it measured'),
  })
  .meta({ id: 'CountConfidence' });
export type CountConfidence = z.infer<typeof countConfidence>;

/** Honeybees only in the totals; wasps and hornets appear in by_class for Researcher owners. */
export const fileTraffic = z
  .object({
    what: z.string(),
    entrance,
    bees_in: z.number().int(),
    bees_out: z.number().int(),
    net_flow: z.number().int(),
    loops: z.number().int(),
    in_per_minute: z.number(),
    out_per_minute: z.number(),
    by_class: z.partialRecord(productClass, passages),
    per_minute: z.array(minuteTraffic),
    events: z.array(trafficEvent),
    density: entranceDensity
      .nullable()
      .describe('Null for a video counted before densities were measured'),
    sample_fps: z
      .number()
      .nullable()
      .describe(
        'Frames per second of video the passages were tracked at (the sample rate); null for a video counted before',
      ),
    confidence: countConfidence
      .nullable()
      .describe('Null where density is; read at the rate the passages were tracked at'),
  })
  .meta({ id: 'FileTraffic' });
export type FileTraffic = z.infer<typeof fileTraffic>;

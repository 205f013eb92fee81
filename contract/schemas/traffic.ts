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
  })
  .meta({ id: 'FileTraffic' });
export type FileTraffic = z.infer<typeof fileTraffic>;

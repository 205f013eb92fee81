/** A comparison of two groups of processed files (POST /api/compute-groups, decisions.md 3). */
import { z } from 'zod';

/** A 95% interval, percent (0-100). */
const interval = z.object({ low: z.number(), high: z.number() });

const groupTest = z.object({
  p_value: z.number().nullable().describe('Null when no verdict is given'),
  p_text: z.string().nullable().describe('"p < 0.001" or "p = 0.03"; null without a p-value'),
  significant: z.boolean().nullable(),
  verdict: z.string().describe('The verdict, or why there is none'),
});

const groupTotals = z.object({
  files: z.number().int(),
  honeybees: z.number().int(),
  pollen: z.number().int().nullable(),
  drones: z.number().int().nullable(),
});

const groupFiles = z.array(z.object({ id: z.number().int(), name: z.string() }));

/** One of the figures compared, as the answer's field names spell it. */
export const COMPARED = ['bee', 'pollen', 'drones'] as const;
export type Compared = (typeof COMPARED)[number];

const percent = z.number().nullable().describe('Null where a file has no such class');

export const comparison = z
  .object({
    bee_group_one_percent: percent,
    bee_group_two_percent: percent,
    pollen_group_one_percent: percent,
    pollen_group_two_percent: percent,
    drones_group_one_percent: percent,
    drones_group_two_percent: percent,
    confidence_intervals: z.object({
      bee_group_one: interval.nullable(),
      bee_group_two: interval.nullable(),
      pollen_group_one: interval.nullable(),
      pollen_group_two: interval.nullable(),
      drones_group_one: interval.nullable(),
      drones_group_two: interval.nullable(),
    }),
    significance: z.object({ bee: groupTest, pollen: groupTest, drones: groupTest }),
    totals: z.object({ group_one: groupTotals, group_two: groupTotals }),
    method: z.string().describe('How the figures, intervals and test are made'),
    comparison_id: z.number().int(),
    group_one_files: groupFiles,
    group_two_files: groupFiles,
  })
  .meta({ id: 'Comparison' });
export type Comparison = z.infer<typeof comparison>;

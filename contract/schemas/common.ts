/** Schemas shared by several answers: the error body, classes, counts, entrances. */
import { z } from 'zod';
import { PRODUCT_CLASSES } from '../classes.ts';

/** Every error answer: `message` at top level too, because the console shows it (spec 8). */
export const errorBody = z
  .object({
    error: z.object({
      code: z.string().describe('A code of contract/errors.ts: VALIDATION, NOT_FOUND, ...'),
      message: z.string(),
      fields: z
        .record(z.string(), z.string())
        .optional()
        .describe('Field -> problem, for VALIDATION'),
    }),
    message: z.string(),
  })
  .meta({ id: 'ErrorBody' });
export type ErrorBody = z.infer<typeof errorBody>;

export const productClass = z.enum(PRODUCT_CLASSES).meta({ id: 'ProductClass' });

/** Per-class counts; null where the model cannot detect the class or the plan does not show it. */
export const classCounts = z
  .object(
    Object.fromEntries(PRODUCT_CLASSES.map((c) => [c, z.number().nullable()])) as Record<
      (typeof PRODUCT_CLASSES)[number],
      z.ZodNullable<z.ZodNumber>
    >,
  )
  .meta({ id: 'ClassCounts' });

/** ISO 8601 with the offset, as every time in an answer is written. */
export const isoTime = z.string().describe('ISO 8601 with offset');

export const mediaKind = z.enum(['image', 'video']);
export const fileStatus = z.enum(['UPLOADED', 'QUEUED', 'PROCESSING', 'PROCESSED', 'FAILED']);

/** A point in frame-relative coordinates: 0-1 on both axes, y down. */
export const point = z.tuple([z.number(), z.number()]);

/**
 * A hive entrance: a `line` of two points (the hive on the left walking from the first to the
 * second) or a `polygon` of three or more.
 */
export const entrance = z
  .object({ kind: z.enum(['line', 'polygon']), points: z.array(point) })
  .meta({ id: 'Entrance' });
export type Entrance = z.infer<typeof entrance>;
export type EntrancePoint = z.infer<typeof point>;

export const locationRef = z.object({ id: z.number().int(), name: z.string() });

/** `{ message }` answers of actions. */
export const messageAnswer = z.object({ message: z.string() });

/** A real calendar day written YYYY-MM-DD. */
export function isCalendarDay(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const t = Date.parse(`${value}T00:00:00Z`);
  return Number.isFinite(t) && new Date(t).toISOString().slice(0, 10) === value;
}

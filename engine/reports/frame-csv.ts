/**
 * Per-frame report CSV (decisions.md section 2): one row per analysed frame. A class the model
 * cannot detect leaves its cell empty, never 0. `wasps` and `hornets` are research columns.
 */
import { stringify } from 'csv-stringify/sync';
import { HONEYBEE_CLASSES } from '../types.ts';
import type { FrameResult, ProductClass, Traffic } from '../types.ts';

export const FRAME_CSV_COLUMNS = [
  'frame',
  'time_s',
  'bees',
  'pollen_bees',
  'drones',
  'wasps',
  'hornets',
  'bee_coverage_pct',
] as const;

/** Column -> class for the count columns. */
export const COUNT_COLUMNS: Readonly<Record<string, ProductClass>> = {
  bees: 'bee',
  pollen_bees: 'pollen',
  drones: 'drone',
  wasps: 'wasp',
  hornets: 'hornet',
};

/**
 * Appended only when an entrance was set: honeybees in and out up to and including each frame
 * (an event's frame is where its track was first seen on its final side).
 */
export const TRAFFIC_FRAME_COLUMNS = ['bees_in_cumulative', 'bees_out_cumulative'] as const;

export const RESEARCH_COLUMNS: readonly string[] = ['wasps', 'hornets'];

export interface FrameCsvOptions {
  /** Include `wasps` and `hornets` (Researcher plan; the CLI always does). */
  includeResearch: boolean;
}

export type FrameCsvRow = Pick<FrameResult, 'index' | 'timeS' | 'counts' | 'beeCoveragePct'>;

export function frameCsvColumns(options: FrameCsvOptions): string[] {
  return FRAME_CSV_COLUMNS.filter((c) => options.includeResearch || !RESEARCH_COLUMNS.includes(c));
}

export function frameCsv(
  result: { frames: readonly FrameCsvRow[]; traffic?: Pick<Traffic, 'events'> | null },
  options: FrameCsvOptions,
): string {
  const events = (result.traffic?.events ?? []).filter((e) => HONEYBEE_CLASSES.includes(e.cls));
  const columns = [...frameCsvColumns(options), ...(result.traffic ? TRAFFIC_FRAME_COLUMNS : [])];
  const upTo = (f: FrameCsvRow, kind: 'in' | 'out') =>
    String(events.filter((e) => e.kind === kind && e.frame <= f.index).length);
  const rows = result.frames.map((f) =>
    columns.map((column) => {
      if (column === 'bees_in_cumulative') return upTo(f, 'in');
      if (column === 'bees_out_cumulative') return upTo(f, 'out');
      if (column === 'frame') return String(f.index);
      if (column === 'time_s') return f.timeS.toFixed(3);
      if (column === 'bee_coverage_pct') return f.beeCoveragePct.toFixed(2);
      return countCell(f.counts[COUNT_COLUMNS[column]!]);
    }),
  );
  return stringify(rows, { header: true, columns });
}

/** A count cell: empty for "not available". */
export function countCell(value: number | null | undefined): string {
  return value === null || value === undefined ? '' : String(value);
}

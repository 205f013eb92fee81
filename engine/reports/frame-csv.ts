/**
 * Per-frame report CSV (decisions.md section 2): one row per analysed frame. A class the model
 * cannot detect leaves its cell empty, never 0. `wasps` and `hornets` are research columns.
 */
import { stringify } from 'csv-stringify/sync';
import type { FrameResult, ProductClass } from '../types.ts';

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
  result: { frames: readonly FrameCsvRow[] },
  options: FrameCsvOptions,
): string {
  const columns = frameCsvColumns(options);
  const rows = result.frames.map((f) =>
    columns.map((column) => {
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

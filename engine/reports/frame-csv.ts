/**
 * Per-frame report CSV (decisions.md section 2): one row per analysed frame. A class the model
 * cannot detect leaves its cell empty, never 0. `wasps` and `hornets` are research columns.
 */
import { HONEYBEE_CLASSES } from '../types.ts';
import type { FrameResult, ProductClass, Traffic } from '../types.ts';
import type { CsvCell } from './csv.ts';
import { csvFixed, writeCsv } from './csv.ts';

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

/**
 * Appended only when the file was analysed with a location's calibration (issue 58): its label,
 * "Calibrated for Apiary North on 7 corrected frames (2026-12-03)", on every row.
 */
export const CALIBRATION_FRAME_COLUMN = 'calibration';

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
  result: {
    frames: readonly FrameCsvRow[];
    traffic?: Pick<Traffic, 'events'> | null;
    calibration?: { label: string } | null;
  },
  options: FrameCsvOptions,
): string {
  const events = (result.traffic?.events ?? []).filter((e) => HONEYBEE_CLASSES.includes(e.cls));
  const calibration = result.calibration?.label ?? null;
  const columns = [
    ...frameCsvColumns(options),
    ...(result.traffic ? TRAFFIC_FRAME_COLUMNS : []),
    ...(calibration ? [CALIBRATION_FRAME_COLUMN] : []),
  ];
  const upTo = (f: FrameCsvRow, kind: 'in' | 'out') =>
    events.filter((e) => e.kind === kind && e.frame <= f.index).length;
  const rows = result.frames.map((f) =>
    columns.map((column): CsvCell => {
      if (column === 'bees_in_cumulative') return upTo(f, 'in');
      if (column === 'bees_out_cumulative') return upTo(f, 'out');
      if (column === CALIBRATION_FRAME_COLUMN) return calibration;
      if (column === 'frame') return f.index;
      if (column === 'time_s') return csvFixed(f.timeS, 3);
      if (column === 'bee_coverage_pct') return csvFixed(f.beeCoveragePct, 2);
      // null: a class the model cannot detect, an empty cell.
      return f.counts[COUNT_COLUMNS[column]!];
    }),
  );
  return writeCsv(columns, rows);
}

/**
 * Batch summary CSV (decisions.md section 2): one row per analysed file. Shares are of all
 * honeybees (bee + pollen + drone); they are empty where there are no honeybees or the model
 * cannot detect the class.
 */
import { stringify } from 'csv-stringify/sync';
import type { AnalysisResult, ClassCounts } from '../types.ts';
import { countCell } from './frame-csv.ts';

export const SUMMARY_CSV_COLUMNS = [
  'file',
  'kind',
  'duration_s',
  'frames_analysed',
  'bees',
  'pollen_bees',
  'drones',
  'wasps',
  'hornets',
  'pollen_pct',
  'drones_pct',
  'bee_coverage_pct',
  'model',
  'analysed_at',
] as const;

export type SummaryCsvInput = Pick<
  AnalysisResult,
  'file' | 'media' | 'frames' | 'counts' | 'beeCoveragePct' | 'model' | 'analysedAt'
>;

/** Share of honeybees in `cls`, percent, or null when it cannot be computed. */
export function honeybeeShare(counts: ClassCounts, cls: 'pollen' | 'drone'): number | null {
  const part = counts[cls];
  if (part === null) return null;
  const total = (counts.bee ?? 0) + (counts.pollen ?? 0) + (counts.drone ?? 0);
  return total > 0 ? (part / total) * 100 : null;
}

export function summaryCsv(results: readonly SummaryCsvInput[]): string {
  const rows = results.map((r) => {
    const pollenPct = honeybeeShare(r.counts, 'pollen');
    const dronesPct = honeybeeShare(r.counts, 'drone');
    return [
      r.file,
      r.media.kind,
      r.media.durationS.toFixed(3),
      String(r.frames.length),
      countCell(r.counts.bee),
      countCell(r.counts.pollen),
      countCell(r.counts.drone),
      countCell(r.counts.wasp),
      countCell(r.counts.hornet),
      pollenPct === null ? '' : pollenPct.toFixed(2),
      dronesPct === null ? '' : dronesPct.toFixed(2),
      r.beeCoveragePct.toFixed(2),
      `${r.model.name}@${r.model.version}`,
      r.analysedAt,
    ];
  });
  return stringify(rows, { header: true, columns: [...SUMMARY_CSV_COLUMNS] });
}

/**
 * Batch summary CSV (decisions.md section 2): one row per analysed file. Shares are of all
 * honeybees (bee + pollen + drone); they are empty where there are no honeybees or the model
 * cannot detect the class. The count columns are unique insects (tracks for a video); the
 * appended `mean_bees_on_screen` / `peak_bees_on_screen` are honeybees per sampled frame.
 */
import type { AnalysisResult, ClassCounts, Traffic } from '../types.ts';
import { honeybeesOnScreen } from './counts.ts';
import { csvFixed, writeCsv } from './csv.ts';

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
  // Appended, never reordered (decisions.md section 2).
  'mean_bees_on_screen',
  'peak_bees_on_screen',
  'quality',
  // Entrance traffic (honeybees): empty cells when no entrance was set.
  'bees_in',
  'bees_out',
  // The location's calibration the counts were made with (issue 58); empty without one.
  'calibration',
] as const;

export type SummaryCsvInput = Pick<
  AnalysisResult,
  'file' | 'counts' | 'beeCoveragePct' | 'analysedAt'
> & {
  media: Pick<AnalysisResult['media'], 'kind' | 'durationS'>;
  model: Pick<AnalysisResult['model'], 'name' | 'version'>;
  frames: readonly { counts: ClassCounts }[];
  /** The result's quality grade; the cell stays empty while a result has none. */
  quality?: { grade: string } | null;
  /** Entrance traffic, when an entrance was set. */
  traffic?: Pick<Traffic, 'beesIn' | 'beesOut'> | null;
  /** The calibration the file was analysed with, when it was. */
  calibration?: { label: string } | null;
};

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
    const onScreen = honeybeesOnScreen(r.frames);
    const pct = (v: number | null) => (v === null ? null : csvFixed(v, 2));
    return [
      r.file,
      r.media.kind,
      csvFixed(r.media.durationS, 3),
      r.frames.length,
      r.counts.bee,
      r.counts.pollen,
      r.counts.drone,
      r.counts.wasp,
      r.counts.hornet,
      pct(pollenPct),
      pct(dronesPct),
      csvFixed(r.beeCoveragePct, 2),
      `${r.model.name}@${r.model.version}`,
      r.analysedAt,
      onScreen ? csvFixed(onScreen.meanHoneybees, 2) : null,
      onScreen ? onScreen.peakHoneybees : null,
      r.quality?.grade ?? null,
      r.traffic?.beesIn,
      r.traffic?.beesOut,
      r.calibration?.label ?? null,
    ];
  });
  return writeCsv(SUMMARY_CSV_COLUMNS, rows);
}

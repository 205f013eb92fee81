// Hive history (issue 43): the geometry of the API's points on time charts (pure, so it is
// testable). One point per analysed file, at its recording time; the point is the contract's.
import type { HistoryPoint } from '../../../contract/schemas/history.ts';
import { niceMax } from './chart.ts';

export type { HistoryPoint };

export type HistoryKey =
  'in_per_minute' | 'out_per_minute' | 'unique_bees_per_minute' | 'pollen_pct' | 'drones_pct';

export interface HistorySeries {
  key: HistoryKey;
  label: string;
  color: string;
}

// Okabe-Ito, as the other charts: in/out as the file's traffic chart, pollen and drones as the
// counts chart and the preview's boxes, unique bees as worker bees.
export const ACTIVITY_SERIES: HistorySeries[] = [
  { key: 'in_per_minute', label: 'Bees in per minute', color: '#009e73' },
  { key: 'out_per_minute', label: 'Bees out per minute', color: '#cc79a7' },
  {
    key: 'unique_bees_per_minute',
    label: 'Unique bees per minute (no entrance)',
    color: '#e69f00',
  },
];
export const SHARE_SERIES: HistorySeries[] = [
  { key: 'pollen_pct', label: 'Bees with pollen (%)', color: '#56b4e9' },
  { key: 'drones_pct', label: 'Drones (%)', color: '#0072b2' },
];

/**
 * The activity figure of a point: in/out where an entrance counted it, unique bees per minute
 * only where none did (so the two kinds never sit on one file twice).
 */
export function activityValue(p: HistoryPoint, key: HistoryKey): number | null {
  if (key === 'unique_bees_per_minute')
    return p.in_per_minute === null ? p.unique_bees_per_minute : null;
  return p[key];
}

export const timeOf = (p: HistoryPoint) => Date.parse(p.recorded_at);

/** The time axis: the points' span, or a day around a single instant. */
export function timeDomain(points: readonly HistoryPoint[]): [number, number] {
  const times = points.map(timeOf).filter(Number.isFinite);
  if (times.length === 0) return [0, 1];
  const lo = Math.min(...times);
  const hi = Math.max(...times);
  if (hi - lo < 60_000) return [lo - 43_200_000, hi + 43_200_000];
  const pad = (hi - lo) * 0.04;
  return [lo - pad, hi + pad];
}

/** Evenly spaced instants across the domain for tick labels. */
export function timeTicks([lo, hi]: [number, number], count: number): number[] {
  if (count < 2) return [lo];
  return Array.from({ length: count }, (_, i) => lo + ((hi - lo) * i) / (count - 1));
}

/** 0 to a round maximum in four steps (rates and percentages need not be whole). */
export function valueTicks(max: number, percent = false): number[] {
  const top = percent ? Math.min(100, niceMax(Math.max(max, 1))) : niceMax(Math.max(max, 1));
  return [0, 1, 2, 3, 4].map((i) => (top * i) / 4);
}

/** A tick or tooltip label for an instant: the day, with the time when the span is short. */
export function timeLabel(t: number, spanMs: number): string {
  const d = new Date(t);
  const day = d.toLocaleDateString(undefined, { month: 'short', day: 'numeric' });
  if (spanMs > 4 * 86_400_000) return day;
  return `${day} ${d.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' })}`;
}

export const figure = (v: number | null, unit = '') =>
  v === null ? '—' : `${Number.isInteger(v) ? v : v.toFixed(1)}${unit}`;

// Reading the compute-groups answer: the spec's six fields plus, per decisions section 3, each
// ratio's 95% confidence interval and whether the groups differ significantly.
import { formatPercent } from './format.ts';

export type Metric = 'bee' | 'pollen' | 'drones';

export const METRICS: { key: Metric; label: string; description: string }[] = [
  {
    key: 'bee',
    label: 'Bee coverage',
    description: 'Mean share of the frame covered by honeybees',
  },
  {
    key: 'pollen',
    label: 'Pollen levels',
    description: 'Pollen-carrying bees among all honeybees',
  },
  { key: 'drones', label: 'Drones activity', description: 'Drones among all honeybees' },
];

export interface Interval {
  low: number;
  high: number;
}

export interface MetricRow {
  key: Metric;
  label: string;
  description: string;
  one: string;
  two: string;
  oneInterval: Interval | null;
  twoInterval: Interval | null;
  /** null when the server gave no test for this metric. */
  significant: boolean | null;
  pValue: number | null;
}

function record(value: unknown): Record<string, unknown> {
  return value && typeof value === 'object' ? (value as Record<string, unknown>) : {};
}

function interval(value: unknown): Interval | null {
  const v = record(value);
  return typeof v.low === 'number' && typeof v.high === 'number'
    ? { low: v.low, high: v.high }
    : null;
}

export function formatInterval(i: Interval | null): string {
  if (!i) return 'CI not available';
  return `95% CI ${i.low.toFixed(1)}–${i.high.toFixed(1)}%`;
}

export function metricRows(result: unknown): MetricRow[] {
  const r = record(result);
  const ci = record(r.confidence_intervals);
  const sig = record(r.significance);
  return METRICS.map((m) => {
    const test = record(sig[m.key]);
    return {
      ...m,
      one: formatPercent(r[`${m.key}_group_one_percent`]),
      two: formatPercent(r[`${m.key}_group_two_percent`]),
      oneInterval: interval(ci[`${m.key}_group_one`]),
      twoInterval: interval(ci[`${m.key}_group_two`]),
      significant: typeof test.significant === 'boolean' ? test.significant : null,
      pValue: typeof test.p_value === 'number' ? test.p_value : null,
    };
  });
}

export function significanceText(row: Pick<MetricRow, 'significant' | 'pValue'>): string {
  if (row.significant === null) return 'No significance test for this indicator';
  const p =
    row.pValue === null ? '' : ` (p = ${row.pValue < 0.001 ? '< 0.001' : row.pValue.toFixed(3)})`;
  return row.significant ? `Significant difference${p}` : `No significant difference${p}`;
}

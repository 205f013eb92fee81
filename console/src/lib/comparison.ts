// Reading the compute-groups answer: the spec's six fields plus, per decisions section 3, each
// figure's 95% interval, the server's verdict (or why there is none) and what each group rests on.
import { formatPercent } from './format.ts';

export type Metric = 'bee' | 'pollen' | 'drones';

export const METRICS: { key: Metric; label: string; description: string }[] = [
  {
    key: 'bee',
    label: 'Bee coverage',
    description:
      'Share of the frame covered by honeybees: each file\u2019s mean over its frames, averaged over the group\u2019s files',
  },
  {
    key: 'pollen',
    label: 'Pollen levels',
    description: 'Pollen-carrying bees among the group\u2019s unique honeybees, all files pooled',
  },
  {
    key: 'drones',
    label: 'Drones activity',
    description: 'Drones among the group\u2019s unique honeybees, all files pooled',
  },
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
  /** null when the server gave no verdict for this metric. */
  significant: boolean | null;
  pValue: number | null;
  /** The server's one-line verdict ("too few insects to compare", ...), when it sent one. */
  verdict: string | null;
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
      verdict: typeof test.verdict === 'string' ? test.verdict : null,
    };
  });
}

/** "p < 0.001" or "p = 0.03" (decisions.md 3). */
export function pText(p: number): string {
  return p < 0.001 ? 'p < 0.001' : `p = ${Number(p.toPrecision(2))}`;
}

export function significanceText(
  row: Pick<MetricRow, 'significant' | 'pValue'> & { verdict?: string | null },
): string {
  if (row.verdict) return row.verdict.charAt(0).toUpperCase() + row.verdict.slice(1);
  if (row.significant === null) return 'No significance test for this indicator';
  const p = row.pValue === null ? '' : ` (${pText(row.pValue)})`;
  return row.significant ? `Significant difference${p}` : `No significant difference${p}`;
}

export interface GroupBasis {
  files: number;
  honeybees: number;
}

/** What each group's figures rest on (the answer's totals), or null from an older server. */
export function groupBasis(result: unknown): { one: GroupBasis; two: GroupBasis } | null {
  const totals = record(record(result).totals);
  const basis = (value: unknown): GroupBasis | null => {
    const t = record(value);
    return typeof t.files === 'number' && typeof t.honeybees === 'number'
      ? { files: t.files, honeybees: t.honeybees }
      : null;
  };
  const one = basis(totals.group_one);
  const two = basis(totals.group_two);
  return one && two ? { one, two } : null;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** "Group 1 rests on 2 files and 27 honeybees; group 2 on ..." */
export function basisText(b: { one: GroupBasis; two: GroupBasis }): string {
  return `Group 1 rests on ${plural(b.one.files, 'file')} and ${plural(b.one.honeybees, 'honeybee')}; group 2 on ${plural(b.two.files, 'file')} and ${plural(b.two.honeybees, 'honeybee')}. Each file counts once, however many frames it has; a verdict needs at least 2 files and 30 honeybees per group.`;
}

// Reading the compute-groups answer: the spec's six fields plus, per decisions section 3, each
// figure's 95% interval, the server's verdict (or why there is none) and what each group rests on.
import type { Comparison, Compared } from '../../../contract/schemas/comparison.ts';
import { formatPercent } from './format.ts';

export type { Comparison };
export type Metric = Compared;

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

export type Interval = NonNullable<Comparison['confidence_intervals']['bee_group_one']>;

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
  /** The server's one-line verdict ("too few insects to compare", ...). */
  verdict: string | null;
}

export function formatInterval(i: Interval | null): string {
  if (!i) return 'CI not available';
  return `95% CI ${i.low.toFixed(1)}–${i.high.toFixed(1)}%`;
}

export function metricRows(r: Comparison): MetricRow[] {
  return METRICS.map((m) => {
    const test = r.significance[m.key];
    return {
      ...m,
      one: formatPercent(r[`${m.key}_group_one_percent`]),
      two: formatPercent(r[`${m.key}_group_two_percent`]),
      oneInterval: r.confidence_intervals[`${m.key}_group_one`],
      twoInterval: r.confidence_intervals[`${m.key}_group_two`],
      significant: test.significant,
      pValue: test.p_value,
      verdict: test.verdict,
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

export type GroupBasis = Pick<Comparison['totals']['group_one'], 'files' | 'honeybees'>;

/** What each group's figures rest on (the answer's totals). */
export function groupBasis(r: Comparison): { one: GroupBasis; two: GroupBasis } {
  return { one: r.totals.group_one, two: r.totals.group_two };
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** "Group 1 rests on 2 files and 27 honeybees; group 2 on ..." */
export function basisText(b: { one: GroupBasis; two: GroupBasis }): string {
  return `Group 1 rests on ${plural(b.one.files, 'file')} and ${plural(b.one.honeybees, 'honeybee')}; group 2 on ${plural(b.two.files, 'file')} and ${plural(b.two.honeybees, 'honeybee')}. Each file counts once, however many frames it has; a verdict needs at least 2 files and 30 honeybees per group.`;
}

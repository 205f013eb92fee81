/**
 * Pure statistics for the hive-health comparison (decisions.md section 3). Files are the unit:
 * a video's many frames must not outweigh a photo, and the insects of one file are not
 * independent (one visit, one hour, one colony mood). So:
 * - bee coverage is the mean over files of each file's mean coverage;
 * - pollen and drone shares pool the group's unique insects (ratio of sums);
 * - 95 % intervals are a cluster bootstrap: files are resampled with replacement;
 * - the test between groups is a permutation test of files: whole files swap groups.
 * Both use a fixed seed, so the same groups always give the same answer. No I/O.
 */

import { seededRandom } from '../../engine/vocabulary.ts';

export { seededRandom };

/** Resamples for the intervals and permutations for the tests. */
export const RESAMPLES = 2000;
/** Fixed, so a comparison is reproducible (and testable). */
export const SEED = 0x5eed_b33;
/** Below these a group is not compared (decisions.md 3). */
export const MIN_FILES = 2;
export const MIN_HONEYBEES = 30;
export const TOO_FEW = 'too few insects to compare';
const ALPHA = 0.05;

export interface Interval {
  /** Percent, 0-100. */
  low: number;
  high: number;
}

export interface GroupTest {
  /** null when no verdict is given (too few files or honeybees, or no figure to compare). */
  p_value: number | null;
  /** "p < 0.001" or "p = 0.03"; null without a p-value. */
  p_text: string | null;
  significant: boolean | null;
  /** One line for the screen: the verdict, or why there is none. */
  verdict: string;
}

/** One analysed file, as far as the comparison cares. `null` counts: class not available. */
export interface GroupFileInput {
  bee: number | null;
  pollen: number | null;
  drone: number | null;
  /** The file's mean bee coverage over its analysed frames, percent. */
  coverage: number;
}

type Figure = (files: readonly GroupFileInput[]) => number | null;

const honeybees = (f: GroupFileInput) => (f.bee ?? 0) + (f.pollen ?? 0) + (f.drone ?? 0);

/** Share of honeybees in `cls` over the files' pooled insects, percent. */
function share(cls: 'pollen' | 'drone'): Figure {
  return (files) => {
    let part = 0;
    let all = 0;
    for (const f of files) {
      const n = f[cls];
      if (n === null) return null;
      part += n;
      all += honeybees(f);
    }
    return all > 0 ? (part / all) * 100 : null;
  };
}

export const FIGURES: Record<'bee' | 'pollen' | 'drones', Figure> = {
  bee: (files) => (files.length === 0 ? null : mean(files.map((f) => f.coverage))),
  pollen: share('pollen'),
  drones: share('drone'),
};

/**
 * 95 % percentile interval of `figure` over files resampled with replacement. Null for fewer
 * than two files (one file's resamples are all the same file) or no figure.
 */
export function bootstrapInterval(
  files: readonly GroupFileInput[],
  figure: Figure,
  resamples = RESAMPLES,
  seed = SEED,
): Interval | null {
  if (files.length < MIN_FILES || figure(files) === null) return null;
  const random = seededRandom(seed);
  const values: number[] = [];
  const sample: GroupFileInput[] = new Array<GroupFileInput>(files.length);
  for (let r = 0; r < resamples; r++) {
    for (let i = 0; i < files.length; i++) sample[i] = files[Math.floor(random() * files.length)]!;
    const v = figure(sample);
    if (v !== null) values.push(v);
  }
  if (values.length === 0) return null;
  values.sort((x, y) => x - y);
  return { low: clampPct(quantile(values, 0.025)), high: clampPct(quantile(values, 0.975)) };
}

/**
 * Two-sided permutation test of files: how often does a random split of all the files into
 * groups of the same sizes differ at least as much as the real groups? p = (k + 1) / (B + 1),
 * over the splits where both figures exist.
 */
export function permutationP(
  one: readonly GroupFileInput[],
  two: readonly GroupFileInput[],
  figure: Figure,
  permutations = RESAMPLES,
  seed = SEED,
): number | null {
  const a = figure(one);
  const b = figure(two);
  if (a === null || b === null) return null;
  const observed = Math.abs(a - b);
  const all = [...one, ...two];
  const random = seededRandom(seed);
  let atLeast = 0;
  let valid = 0;
  for (let r = 0; r < permutations; r++) {
    // Fisher-Yates over the first |one| places: a uniform random split.
    for (let i = 0; i < one.length; i++) {
      const j = i + Math.floor(random() * (all.length - i));
      [all[i], all[j]] = [all[j]!, all[i]!];
    }
    const x = figure(all.slice(0, one.length));
    const y = figure(all.slice(one.length));
    // A tiny tolerance so that ties in floating point count as ties.
    if (x === null || y === null) continue;
    valid++;
    if (Math.abs(x - y) >= observed - 1e-9) atLeast++;
  }
  return (atLeast + 1) / (valid + 1);
}

/** "p < 0.001" or "p = 0.03" (two significant digits). */
export function pText(p: number): string {
  return p < 0.001 ? 'p < 0.001' : `p = ${Number(p.toPrecision(2))}`;
}

export interface GroupTotals {
  files: number;
  honeybees: number;
  pollen: number | null;
  drones: number | null;
}

export function groupTotals(files: readonly GroupFileInput[]): GroupTotals {
  const sum = (cls: 'pollen' | 'drone') =>
    files.some((f) => f[cls] === null) ? null : files.reduce((s, f) => s + (f[cls] ?? 0), 0);
  return {
    files: files.length,
    honeybees: files.reduce((s, f) => s + honeybees(f), 0),
    pollen: sum('pollen'),
    drones: sum('drone'),
  };
}

/** Whether a group rests on enough files and honeybees for a verdict. */
export function enough(t: GroupTotals): boolean {
  return t.files >= MIN_FILES && t.honeybees >= MIN_HONEYBEES;
}

function groupTest(
  one: readonly GroupFileInput[],
  two: readonly GroupFileInput[],
  figure: Figure,
): GroupTest {
  const none = (verdict: string): GroupTest => ({
    p_value: null,
    p_text: null,
    significant: null,
    verdict,
  });
  if (!enough(groupTotals(one)) || !enough(groupTotals(two))) return none(TOO_FEW);
  const p = permutationP(one, two, figure);
  if (p === null) return none('not available for these files');
  const significant = p < ALPHA;
  return {
    p_value: p,
    p_text: pText(p),
    significant,
    verdict: `${significant ? 'Significant difference' : 'No significant difference'} (${pText(p)})`,
  };
}

export interface ComparisonResult {
  bee_group_one_percent: number | null;
  bee_group_two_percent: number | null;
  pollen_group_one_percent: number | null;
  pollen_group_two_percent: number | null;
  drones_group_one_percent: number | null;
  drones_group_two_percent: number | null;
  confidence_intervals: {
    bee_group_one: Interval | null;
    bee_group_two: Interval | null;
    pollen_group_one: Interval | null;
    pollen_group_two: Interval | null;
    drones_group_one: Interval | null;
    drones_group_two: Interval | null;
  };
  significance: { bee: GroupTest; pollen: GroupTest; drones: GroupTest };
  totals: { group_one: GroupTotals; group_two: GroupTotals };
  method: string;
}

export const METHOD =
  `Files are the unit. Bee coverage: mean over files of each file's mean coverage. Pollen and ` +
  `drones: share of the group's unique honeybees. 95% intervals: bootstrap resampling files ` +
  `(${RESAMPLES} resamples, fixed seed). Test: permutation of files between groups. No verdict ` +
  `with fewer than ${MIN_FILES} files or ${MIN_HONEYBEES} honeybees in a group.`;

export function compareGroups(
  groupOne: readonly GroupFileInput[],
  groupTwo: readonly GroupFileInput[],
): ComparisonResult {
  const { bee, pollen, drones } = FIGURES;
  return {
    bee_group_one_percent: bee(groupOne),
    bee_group_two_percent: bee(groupTwo),
    pollen_group_one_percent: pollen(groupOne),
    pollen_group_two_percent: pollen(groupTwo),
    drones_group_one_percent: drones(groupOne),
    drones_group_two_percent: drones(groupTwo),
    confidence_intervals: {
      bee_group_one: bootstrapInterval(groupOne, bee),
      bee_group_two: bootstrapInterval(groupTwo, bee),
      pollen_group_one: bootstrapInterval(groupOne, pollen),
      pollen_group_two: bootstrapInterval(groupTwo, pollen),
      drones_group_one: bootstrapInterval(groupOne, drones),
      drones_group_two: bootstrapInterval(groupTwo, drones),
    },
    significance: {
      bee: groupTest(groupOne, groupTwo, bee),
      pollen: groupTest(groupOne, groupTwo, pollen),
      drones: groupTest(groupOne, groupTwo, drones),
    },
    totals: { group_one: groupTotals(groupOne), group_two: groupTotals(groupTwo) },
    method: METHOD,
  };
}

export function mean(values: readonly number[]): number {
  return values.length === 0 ? NaN : values.reduce((s, v) => s + v, 0) / values.length;
}

/** Linear-interpolated quantile of sorted values. */
function quantile(sorted: readonly number[], q: number): number {
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.min(sorted.length - 1, lo + 1);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (pos - lo);
}

function clampPct(v: number): number {
  return Math.min(100, Math.max(0, v));
}

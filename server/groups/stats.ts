/**
 * Pure statistics for the hive-health comparison (decisions.md section 3). No I/O: the caller
 * hands in per-file counts and per-frame coverage values, this module pools and compares them.
 */

/** Two-sided 95% critical value of the standard normal distribution. */
export const Z_95 = 1.959963984540054;

export interface Interval {
  /** Percent, 0-100. */
  low: number;
  high: number;
}

export interface ProportionTest {
  z: number;
  p_value: number;
  significant: boolean;
}

/**
 * Wilson score interval for `successes` out of `trials`, in percent. Chosen over the Wald
 * interval because hive counts are often small and proportions near 0 (drones), where Wald
 * collapses to a zero-width interval.
 */
export function wilsonInterval(successes: number, trials: number, z = Z_95): Interval | null {
  if (!(trials > 0) || successes < 0 || successes > trials) return null;
  const p = successes / trials;
  const z2 = z * z;
  const denom = 1 + z2 / trials;
  const centre = (p + z2 / (2 * trials)) / denom;
  const half = (z * Math.sqrt((p * (1 - p)) / trials + z2 / (4 * trials * trials))) / denom;
  return { low: clampPct((centre - half) * 100), high: clampPct((centre + half) * 100) };
}

/**
 * Normal-approximation interval for a mean of values already in percent (sample standard
 * deviation, n - 1). Needs at least two values; clamped to 0-100.
 */
export function meanInterval(values: readonly number[], z = Z_95): Interval | null {
  const n = values.length;
  if (n < 2) return null;
  const m = mean(values);
  const variance = values.reduce((s, v) => s + (v - m) ** 2, 0) / (n - 1);
  const half = z * Math.sqrt(variance / n);
  return { low: clampPct(m - half), high: clampPct(m + half) };
}

/**
 * Two-proportion z-test with the pooled standard error, two-sided. When both groups show the
 * same all-or-nothing proportion (pooled 0 or 1) there is no difference to detect: z 0, p 1.
 */
export function twoProportionTest(
  x1: number,
  n1: number,
  x2: number,
  n2: number,
  alpha = 0.05,
): ProportionTest | null {
  if (!(n1 > 0) || !(n2 > 0)) return null;
  const pooled = (x1 + x2) / (n1 + n2);
  const se = Math.sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n2));
  if (se === 0) return { z: 0, p_value: 1, significant: false };
  const z = (x1 / n1 - x2 / n2) / se;
  const pValue = Math.min(1, 2 * (1 - normalCdf(Math.abs(z))));
  return { z, p_value: pValue, significant: pValue < alpha };
}

/** Standard normal CDF via erf (Abramowitz and Stegun 7.1.26, absolute error < 1.5e-7). */
export function normalCdf(x: number): number {
  return 0.5 * (1 + erf(x / Math.SQRT2));
}

function erf(x: number): number {
  const sign = x < 0 ? -1 : 1;
  const a = Math.abs(x);
  const t = 1 / (1 + 0.3275911 * a);
  const poly =
    t *
    (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))));
  return sign * (1 - poly * Math.exp(-a * a));
}

export function mean(values: readonly number[]): number {
  return values.length === 0 ? NaN : values.reduce((s, v) => s + v, 0) / values.length;
}

function clampPct(v: number): number {
  return Math.min(100, Math.max(0, v));
}

/** One analysed file, as far as the comparison cares. `null` counts: class not available. */
export interface GroupFileInput {
  bee: number | null;
  pollen: number | null;
  drone: number | null;
  /** Bee coverage of every analysed frame, percent. */
  frameCoverage: readonly number[];
}

export interface GroupPooled {
  files: number;
  frames: number;
  honeybees: number;
  pollen: number | null;
  drones: number | null;
  beePercent: number | null;
  pollenPercent: number | null;
  dronesPercent: number | null;
  frameCoverage: number[];
}

/**
 * Pools one group: counts are summed over files (unique insects per file), coverage is the mean
 * over all analysed frames of all files. A ratio is null when it is undefined (no honeybees) or
 * when any file's model cannot detect the numerator class.
 */
export function poolGroup(files: readonly GroupFileInput[]): GroupPooled {
  const frameCoverage = files.flatMap((f) => [...f.frameCoverage]);
  const honeybees = files.reduce((s, f) => s + (f.bee ?? 0) + (f.pollen ?? 0) + (f.drone ?? 0), 0);
  const pollen = files.some((f) => f.pollen === null)
    ? null
    : files.reduce((s, f) => s + (f.pollen ?? 0), 0);
  const drones = files.some((f) => f.drone === null)
    ? null
    : files.reduce((s, f) => s + (f.drone ?? 0), 0);
  return {
    files: files.length,
    frames: frameCoverage.length,
    honeybees,
    pollen,
    drones,
    beePercent: frameCoverage.length === 0 ? null : mean(frameCoverage),
    pollenPercent: pollen === null || honeybees === 0 ? null : (pollen / honeybees) * 100,
    dronesPercent: drones === null || honeybees === 0 ? null : (drones / honeybees) * 100,
    frameCoverage,
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
  significance: {
    pollen: ProportionTest | null;
    drones: ProportionTest | null;
  };
  totals: {
    group_one: {
      files: number;
      frames: number;
      honeybees: number;
      pollen: number | null;
      drones: number | null;
    };
    group_two: {
      files: number;
      frames: number;
      honeybees: number;
      pollen: number | null;
      drones: number | null;
    };
  };
}

export function compareGroups(
  groupOne: readonly GroupFileInput[],
  groupTwo: readonly GroupFileInput[],
): ComparisonResult {
  const a = poolGroup(groupOne);
  const b = poolGroup(groupTwo);
  const ratioCi = (x: number | null, n: number) => (x === null ? null : wilsonInterval(x, n));
  const ratioTest = (x1: number | null, x2: number | null) =>
    x1 === null || x2 === null ? null : twoProportionTest(x1, a.honeybees, x2, b.honeybees);
  const totals = (g: GroupPooled) => ({
    files: g.files,
    frames: g.frames,
    honeybees: g.honeybees,
    pollen: g.pollen,
    drones: g.drones,
  });
  return {
    bee_group_one_percent: a.beePercent,
    bee_group_two_percent: b.beePercent,
    pollen_group_one_percent: a.pollenPercent,
    pollen_group_two_percent: b.pollenPercent,
    drones_group_one_percent: a.dronesPercent,
    drones_group_two_percent: b.dronesPercent,
    confidence_intervals: {
      bee_group_one: meanInterval(a.frameCoverage),
      bee_group_two: meanInterval(b.frameCoverage),
      pollen_group_one: ratioCi(a.pollen, a.honeybees),
      pollen_group_two: ratioCi(b.pollen, b.honeybees),
      drones_group_one: ratioCi(a.drones, a.honeybees),
      drones_group_two: ratioCi(b.drones, b.honeybees),
    },
    significance: {
      pollen: ratioTest(a.pollen, b.pollen),
      drones: ratioTest(a.drones, b.drones),
    },
    totals: { group_one: totals(a), group_two: totals(b) },
  };
}

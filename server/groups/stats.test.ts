import { describe, expect, it } from 'vitest';
import type { GroupFileInput } from './stats.ts';
import {
  bootstrapInterval,
  compareGroups,
  FIGURES,
  permutationP,
  pText,
  seededRandom,
  TOO_FEW,
} from './stats.ts';

const file = (bee: number, pollen: number, drone: number, coverage = 1): GroupFileInput => ({
  bee,
  pollen,
  drone,
  coverage,
});

describe('figures on files', () => {
  it('averages coverage over files, so a long video does not drown a photo', () => {
    // A photo at 19.5 % and a video whose mean over 79 frames is 0.05 %: 9.775 %, not 0.3 %.
    expect(FIGURES.bee([file(5, 0, 0, 19.5), file(3, 0, 0, 0.05)])).toBeCloseTo(9.775, 10);
  });

  it('pools unique insects for shares, null where a class is not available', () => {
    expect(FIGURES.pollen([file(6, 3, 1), file(10, 0, 0)])).toBeCloseTo(15, 10);
    expect(FIGURES.drones([file(6, 3, 1), { ...file(1, 1, 0), drone: null }])).toBeNull();
    expect(FIGURES.pollen([file(0, 0, 0)])).toBeNull();
  });
});

describe('resampling', () => {
  it('is reproducible: a fixed seed gives the same numbers', () => {
    const a = seededRandom(7);
    const b = seededRandom(7);
    expect([a(), a(), a()]).toEqual([b(), b(), b()]);
  });

  it('bootstraps an interval over files that holds the figure, none for one file', () => {
    const files = [file(20, 5, 1, 4), file(30, 10, 2, 6), file(25, 2, 0, 5), file(40, 8, 3, 7)];
    const ci = bootstrapInterval(files, FIGURES.pollen);
    const value = FIGURES.pollen(files)!;
    expect(ci!.low).toBeLessThan(value);
    expect(ci!.high).toBeGreaterThan(value);
    expect(bootstrapInterval(files, FIGURES.pollen)).toEqual(ci);
    expect(bootstrapInterval([file(20, 5, 1)], FIGURES.pollen)).toBeNull();
  });

  it('gives a small p only when whole files differ, not when one file is large', () => {
    const low = Array.from({ length: 8 }, (_, i) => file(40 + i, 2, 1));
    const high = Array.from({ length: 8 }, (_, i) => file(30 + i, 20, 1));
    expect(permutationP(low, high, FIGURES.pollen)!).toBeLessThan(0.001);
    // Two files each: at most 6 distinct splits, so p cannot be small whatever the counts.
    expect(
      permutationP(
        [file(500, 5, 0), file(500, 6, 0)],
        [file(50, 500, 0), file(60, 400, 0)],
        FIGURES.pollen,
      )!,
    ).toBeGreaterThan(0.1);
  });

  it('writes p-values as the decisions say', () => {
    expect(pText(0.0004)).toBe('p < 0.001');
    expect(pText(0.03)).toBe('p = 0.03');
    expect(pText(0.0123)).toBe('p = 0.012');
    expect(pText(1)).toBe('p = 1');
  });
});

describe('compareGroups', () => {
  it('gives no verdict on 4 insects, however different the shares', () => {
    // The reported case: pollen 3.7 % vs 75 % "significant" on a handful of insects.
    const r = compareGroups([file(1, 0, 0), file(0, 0, 0)], [file(1, 3, 0), file(0, 0, 0)]);
    expect(r.pollen_group_two_percent).toBe(75);
    expect(r.significance.pollen).toEqual({
      p_value: null,
      p_text: null,
      significant: null,
      verdict: TOO_FEW,
    });
    expect(r.significance.bee.verdict).toBe(TOO_FEW);
    expect(r.totals.group_one).toEqual({ files: 2, honeybees: 1, pollen: 0, drones: 0 });
  });

  it('gives no verdict on one file, however many insects', () => {
    const r = compareGroups([file(500, 20, 5)], [file(400, 200, 5), file(300, 100, 5)]);
    expect(r.significance.pollen.verdict).toBe(TOO_FEW);
    expect(r.confidence_intervals.pollen_group_one).toBeNull();
  });

  it('gives a verdict with enough files and honeybees', () => {
    const one = Array.from({ length: 6 }, (_, i) => file(20 + i, 1, 1, 2));
    const two = Array.from({ length: 6 }, (_, i) => file(9 + i, 12, 1, 2));
    const r = compareGroups(one, two);
    expect(r.significance.pollen.significant).toBe(true);
    expect(r.significance.pollen.verdict).toMatch(/^Significant difference \(p [<=] 0\.0\d+\)$/);
    expect(r.significance.drones.significant).toBe(false);
    expect(r.significance.bee.verdict).toBe('No significant difference (p = 1)');
  });
});

import { describe, expect, it } from 'vitest';
import {
  compareGroups,
  meanInterval,
  normalCdf,
  poolGroup,
  twoProportionTest,
  wilsonInterval,
} from './stats.ts';

describe('wilsonInterval', () => {
  it('matches the textbook value for 10 of 50', () => {
    // p = 0.2, z = 1.96: centre 0.22140, half-width 0.10897 -> [11.24%, 33.04%].
    const ci = wilsonInterval(10, 50);
    expect(ci?.low).toBeCloseTo(11.244, 2);
    expect(ci?.high).toBeCloseTo(33.037, 2);
  });

  it('stays inside 0-100 and is not zero-width at 0 successes', () => {
    const ci = wilsonInterval(0, 20);
    expect(ci?.low).toBe(0);
    // z^2 / (n + z^2) = 3.8415 / 23.8415 = 16.11%.
    expect(ci?.high).toBeCloseTo(16.11, 1);
  });

  it('is undefined without trials', () => {
    expect(wilsonInterval(0, 0)).toBeNull();
  });
});

describe('meanInterval', () => {
  it('uses the sample standard deviation', () => {
    // mean 20, s = 10, se = 5.7735, half = 11.316.
    const ci = meanInterval([10, 20, 30]);
    expect(ci?.low).toBeCloseTo(8.684, 2);
    expect(ci?.high).toBeCloseTo(31.316, 2);
  });

  it('needs two values', () => {
    expect(meanInterval([5])).toBeNull();
  });
});

describe('twoProportionTest', () => {
  it('matches a hand-computed z-test', () => {
    // 30/100 vs 15/100: pooled 0.225, se = sqrt(0.225 * 0.775 * 0.02) = 0.059055, z = 2.540.
    const t = twoProportionTest(30, 100, 15, 100);
    expect(t?.z).toBeCloseTo(2.54, 2);
    expect(t?.p_value).toBeCloseTo(0.0111, 3);
    expect(t?.significant).toBe(true);
  });

  it('is not significant for equal proportions', () => {
    const t = twoProportionTest(10, 50, 20, 100);
    expect(t?.z).toBeCloseTo(0, 10);
    expect(t?.p_value).toBeCloseTo(1, 6);
    expect(t?.significant).toBe(false);
  });

  it('handles all-zero proportions and empty groups', () => {
    expect(twoProportionTest(0, 10, 0, 10)).toEqual({ z: 0, p_value: 1, significant: false });
    expect(twoProportionTest(0, 0, 1, 10)).toBeNull();
  });
});

describe('normalCdf', () => {
  it('matches table values', () => {
    expect(normalCdf(0)).toBeCloseTo(0.5, 6);
    expect(normalCdf(1.959964)).toBeCloseTo(0.975, 5);
    expect(normalCdf(-1)).toBeCloseTo(0.158655, 5);
  });
});

describe('poolGroup / compareGroups', () => {
  it('pools counts over files and coverage over frames', () => {
    const g = poolGroup([
      { bee: 6, pollen: 3, drone: 1, frameCoverage: [10, 20] },
      { bee: 8, pollen: 1, drone: 1, frameCoverage: [30] },
    ]);
    // honeybees 20; pollen 4/20 = 20%; drones 2/20 = 10%; coverage (10+20+30)/3 = 20.
    expect(g.honeybees).toBe(20);
    expect(g.pollenPercent).toBeCloseTo(20, 10);
    expect(g.dronesPercent).toBeCloseTo(10, 10);
    expect(g.beePercent).toBeCloseTo(20, 10);
  });

  it('answers null where a ratio is undefined or a class unavailable', () => {
    const r = compareGroups(
      [{ bee: 0, pollen: 0, drone: 0, frameCoverage: [0] }],
      [{ bee: 5, pollen: null, drone: 1, frameCoverage: [4, 6] }],
    );
    expect(r.pollen_group_one_percent).toBeNull();
    expect(r.drones_group_one_percent).toBeNull();
    expect(r.bee_group_one_percent).toBe(0);
    expect(r.pollen_group_two_percent).toBeNull();
    expect(r.drones_group_two_percent).toBeCloseTo(100 / 6, 10);
    expect(r.confidence_intervals.bee_group_one).toBeNull();
    expect(r.significance.pollen).toBeNull();
    expect(r.significance.drones).toBeNull(); // group one has no honeybees
  });

  it('gives the six fields, intervals and tests for known counts', () => {
    const r = compareGroups(
      [{ bee: 60, pollen: 30, drone: 10, frameCoverage: [10, 20, 30] }],
      [{ bee: 80, pollen: 15, drone: 5, frameCoverage: [5, 5] }],
    );
    expect(r.pollen_group_one_percent).toBe(30);
    expect(r.pollen_group_two_percent).toBe(15);
    expect(r.drones_group_one_percent).toBe(10);
    expect(r.drones_group_two_percent).toBe(5);
    expect(r.bee_group_one_percent).toBe(20);
    expect(r.bee_group_two_percent).toBe(5);
    expect(r.confidence_intervals.bee_group_two).toEqual({ low: 5, high: 5 });
    expect(r.significance.pollen?.p_value).toBeCloseTo(0.0111, 3);
    // drones 10/100 vs 5/100: pooled 0.075, se 0.037249, z 1.342, p 0.1795.
    expect(r.significance.drones?.z).toBeCloseTo(1.342, 2);
    expect(r.significance.drones?.p_value).toBeCloseTo(0.1795, 3);
    expect(r.significance.drones?.significant).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import { countTicks, linePath, niceMax } from './chart.ts';
import {
  basisText,
  formatInterval,
  groupBasis,
  metricRows,
  significanceText,
} from './comparison.ts';
import type { Comparison } from './comparison.ts';
import { countCells, countText } from './fileDetail.ts';

const noVerdict = { p_value: null, p_text: null, significant: null, verdict: '' };
const totals = (files: number, honeybees: number) => ({
  files,
  honeybees,
  pollen: null,
  drones: null,
});

/** A compute-groups answer: the figures given, nothing else. */
function comparison(part: Partial<Comparison> = {}): Comparison {
  return {
    bee_group_one_percent: null,
    bee_group_two_percent: null,
    pollen_group_one_percent: null,
    pollen_group_two_percent: null,
    drones_group_one_percent: null,
    drones_group_two_percent: null,
    confidence_intervals: {
      bee_group_one: null,
      bee_group_two: null,
      pollen_group_one: null,
      pollen_group_two: null,
      drones_group_one: null,
      drones_group_two: null,
    },
    significance: { bee: noVerdict, pollen: noVerdict, drones: noVerdict },
    totals: { group_one: totals(0, 0), group_two: totals(0, 0) },
    method: '',
    comparison_id: 1,
    group_one_files: [],
    group_two_files: [],
    ...part,
  };
}

describe('comparison result', () => {
  it('formats the six indicators with intervals and significance', () => {
    const rows = metricRows(
      comparison({
        bee_group_one_percent: 12.34,
        pollen_group_one_percent: 20,
        pollen_group_two_percent: 35.56,
        drones_group_one_percent: 3,
        confidence_intervals: {
          ...comparison().confidence_intervals,
          pollen_group_one: { low: 15.04, high: 25.5 },
        },
        significance: {
          bee: noVerdict,
          pollen: { p_value: 0.0124, p_text: 'p = 0.012', significant: true, verdict: '' },
          drones: noVerdict,
        },
      }),
    );
    expect(rows.map((r) => [r.one, r.two])).toEqual([
      ['12.3%', 'N/A'],
      ['20.0%', '35.6%'],
      ['3.0%', 'N/A'],
    ]);
    expect(formatInterval(rows[1]!.oneInterval)).toBe('95% CI 15.0–25.5%');
    expect(formatInterval(null)).toBe('CI not available');
    expect(significanceText(rows[1]!)).toBe('Significant difference (p = 0.012)');
    expect(significanceText(rows[2]!)).toBe('No significance test for this indicator');
    expect(significanceText({ significant: false, pValue: 0.0001 })).toBe(
      'No significant difference (p < 0.001)',
    );
    expect(significanceText({ significant: true, pValue: 0.03 })).toBe(
      'Significant difference (p = 0.03)',
    );
    expect(
      significanceText({ significant: null, pValue: null, verdict: 'too few insects to compare' }),
    ).toBe('Too few insects to compare');
  });
});

describe('what a comparison rests on', () => {
  it('names each group\u2019s files and honeybees', () => {
    const basis = groupBasis(
      comparison({ totals: { group_one: totals(2, 27), group_two: totals(1, 1) } }),
    );
    expect(basisText(basis)).toMatch(
      /^Group 1 rests on 2 files and 27 honeybees; group 2 on 1 file and 1 honeybee\./,
    );
  });
});

describe('file detail counts', () => {
  it('says the model has no such class for classes it cannot detect', () => {
    const cells = countCells({ bee: 12, pollen: 3, drone: 0, wasp: null });
    expect(cells.map((c) => countText(c))).toEqual([
      '12',
      '3',
      '0',
      'not available: this model has no wasp class',
      'not available: this model has no hornet class',
    ]);
  });

  it('says the plan has no wasp or hornet counts where the plan hides them', () => {
    const cells = countCells(
      { bee: 4, pollen: 1, drone: 0, wasp: null, hornet: null },
      { researchPlan: false, modelClasses: ['bee', 'pollen', 'drone', 'hornet'] },
    );
    expect(cells.map((c) => countText(c)).slice(3)).toEqual([
      'not available: this model has no wasp class',
      'your plan has no hornet counts',
    ]);
    const researcher = countCells({ bee: 4, wasp: null, hornet: 2 }, { researchPlan: true });
    expect(researcher.map((c) => countText(c)).slice(3)).toEqual([
      'not available: this model has no wasp class',
      '2',
    ]);
  });
});

describe('chart geometry', () => {
  it('puts whole-number count ticks up to at least the peak', () => {
    expect(countTicks(0)).toEqual([0, 1]);
    expect(countTicks(1)).toEqual([0, 1]);
    expect(countTicks(5)).toEqual([0, 2, 4, 6]);
    expect(countTicks(10)).toEqual([0, 5, 10]);
    expect(countTicks(37)).toEqual([0, 10, 20, 30, 40]);
  });

  it('scales points into the box', () => {
    expect(niceMax(7)).toBe(10);
    expect(niceMax(0)).toBe(1);
    expect(niceMax(120)).toBe(200);
    expect(
      linePath(
        [
          { x: 0, y: 0 },
          { x: 2, y: 10 },
        ],
        { maxX: 2, maxY: 10 },
        100,
        50,
      ),
    ).toBe('M0.0 50.0 L100.0 0.0');
  });
});

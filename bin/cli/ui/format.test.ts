import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  failureSummary,
  formatCounts,
  middleEllipsis,
  rateAndEta,
  shownFolder,
  wrapWords,
} from './format.ts';

describe('formatCounts', () => {
  it('says which classes the model has none of, instead of a bare n/a', () => {
    expect(formatCounts({ bee: 12, pollen: 3, drone: 0, wasp: null, hornet: 1 })).toBe(
      'bees 12  pollen 3  drones 0  hornets 1  (this model has no wasp class)',
    );
    expect(formatCounts({ bee: 2, pollen: 0, drone: 1, wasp: null, hornet: null })).toBe(
      'bees 2  pollen 0  drones 1  (this model has no wasp or hornet class)',
    );
    expect(formatCounts({ bee: 1, pollen: 0, drone: 0, wasp: 0, hornet: 0 })).toBe(
      'bees 1  pollen 0  drones 0  wasps 0  hornets 0',
    );
  });
});

describe('rateAndEta', () => {
  it('counts the rate from the first frame seen, not from the start-up before it', () => {
    // The first frame after 700 ms of probe and model load, then 30 frames a second.
    const first = { done: 1, elapsedMs: 700 };
    const at = (done: number) => rateAndEta(done, 40, 700 + ((done - 1) * 1000) / 30, first);
    expect(at(8).fps).toBeCloseTo(30, 6);
    expect(at(31).fps).toBeCloseTo(30, 6);
    expect(at(31).etaMs).toBeCloseTo((9 / 30) * 1000, 6);
    // Until a second frame, and without a first, the rate is from the start.
    expect(rateAndEta(1, 40, 700, first).fps).toBeCloseTo(1000 / 700, 6);
    expect(rateAndEta(8, 40, 1000).fps).toBeCloseTo(8, 6);
  });
});

describe('middleEllipsis', () => {
  it('keeps short names and cuts long ones in the middle, to the width', () => {
    expect(middleEllipsis('clip.mp4', 20)).toBe('clip.mp4');
    const cut = middleEllipsis('2026-06-01-apiary-north-hive-3-morning.mp4', 21);
    expect(cut).toBe('2026-06-01…orning.mp4');
    expect(cut).toHaveLength(21);
    expect(cut.endsWith('.mp4')).toBe(true);
  });
});

describe('failureSummary', () => {
  it('reads naturally for one file, all files and some files', () => {
    expect(failureSummary(1, 1, 'results/')).toBe('The file failed.');
    expect(failureSummary(3, 3, 'results/')).toBe('All 3 files failed.');
    expect(failureSummary(2, 5, 'results/')).toBe(
      '2 of 5 files failed; the other 3 are in results/',
    );
    expect(failureSummary(2, 3, 'results/')).toBe(
      '2 of 3 files failed; the other one is in results/',
    );
  });
});

describe('shownFolder', () => {
  it('shows a folder under the working folder relatively, others in full', () => {
    expect(shownFolder('/work/x/results', '/work/x')).toBe(`results${path.sep}`);
    expect(shownFolder('/elsewhere/out', '/work/x')).toBe(`/elsewhere/out${path.sep}`);
  });
});

describe('wrapWords', () => {
  it('breaks a sentence between words within the width, keeping a longer word whole', () => {
    const reason = 'Bees look much larger than in our training footage; counts may be off.';
    const lines = wrapWords(reason, 30);
    expect(lines.join(' ')).toBe(reason);
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(30);
    expect(wrapWords('a verylongword b', 4)).toEqual(['a', 'verylongword', 'b']);
    expect(wrapWords('', 10)).toEqual([]);
  });
});

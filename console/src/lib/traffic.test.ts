import { describe, expect, it } from 'vitest';
import type { CountConfidence, FileTraffic } from './traffic.ts';
import {
  benchmarkSentence,
  cumulativeSteps,
  densitySentence,
  levelTally,
  minuteLabel,
  perMinuteText,
  verdictSentence,
} from './traffic.ts';

const BUSY: CountConfidence = {
  level: 'rough',
  leans: 'under',
  crowding: 'busy',
  scene_bees: 15,
  band_near: 11.3,
  sample_fps: 5,
  in: { precision: 0.92, recall: 0.4, passages: 362 },
  out: { precision: 0.863, recall: 0.45, passages: 334 },
  source: 'synthetic entrance benchmark (the detector’s errors simulated), 2026-12-06',
};

describe('traffic helpers', () => {
  it('draws running totals of honeybee passages as steps, ignoring wasps', () => {
    const events: FileTraffic['events'] = [
      { kind: 'in', cls: 'bee', time_s: 2.4 },
      { kind: 'out', cls: 'bee', time_s: 6 },
      { kind: 'in', cls: 'pollen', time_s: 8.2 },
      { kind: 'in', cls: 'wasp', time_s: 8.4 },
    ];
    expect(cumulativeSteps(events, 'in', 9)).toEqual([
      { x: 0, y: 0 },
      { x: 2.4, y: 0 },
      { x: 2.4, y: 1 },
      { x: 8.2, y: 1 },
      { x: 8.2, y: 2 },
      { x: 9, y: 2 },
    ]);
    expect(cumulativeSteps([], 'out', 5)).toEqual([
      { x: 0, y: 0 },
      { x: 5, y: 0 },
    ]);
  });

  it('labels minutes as clock spans and rates with one decimal', () => {
    expect(minuteLabel({ start_s: 0, end_s: 9 })).toBe('0:00–0:09');
    expect(minuteLabel({ start_s: 60, end_s: 90 })).toBe('1:00–1:30');
    expect(perMinuteText(13.33)).toBe('13.3');
    expect(perMinuteText(6)).toBe('6');
  });

  it('says how crowded the entrance was and how sure the count is, in words', () => {
    expect(densitySentence({ mean_near: 11.4, peak_near: 19 }, 'busy')).toBe(
      'About 11 bees near the entrance per frame, 19 at the busiest (busy).',
    );
    expect(densitySentence({ mean_near: 0.2, peak_near: 1 }, null)).toBe(
      'Fewer than one bee near the entrance per frame, 1 at the busiest.',
    );
    expect(densitySentence({ mean_near: 0.8, peak_near: 2 }, 'quiet')).toBe(
      'About 1 bee near the entrance per frame, 2 at the busiest (quiet).',
    );
    expect(benchmarkSentence(BUSY)).toBe(
      'At this density our benchmark counts 92 % of passages in right and finds 40 % of them; ' +
        'out, 86 % right and 45 % found.',
    );
    expect(benchmarkSentence(BUSY, 8)).toMatch(/^At this density our benchmark/);
    expect(benchmarkSentence(BUSY, 0.7)).toBe(
      'At the nearest density it ran at (about 11 bees near the entrance), our benchmark counts ' +
        '92 % of passages in right and finds 40 % of them; out, 86 % right and 45 % found.',
    );
    expect(verdictSentence(BUSY)).toBe(
      'A rough count: it misses more passages than it invents, so the real traffic was likely ' +
        'higher than shown.',
    );
    expect(verdictSentence({ ...BUSY, leans: 'over' })).toMatch(/likely lower than shown\.$/);
    expect(verdictSentence({ ...BUSY, level: 'fair', leans: null })).toBe(
      'A fair count: read small differences with care.',
    );
    expect(verdictSentence({ ...BUSY, level: 'close', leans: null })).toBe(
      'A close count at this density.',
    );
  });

  it('tallies the period’s counts by how sure they are', () => {
    expect(levelTally({ close: 0, fair: 0, rough: 1 })).toBe('Of these counts, 1 is rough.');
    expect(levelTally({ close: 0, fair: 2, rough: 3 })).toBe(
      'Of these counts, 2 are fair and 3 rough.',
    );
    expect(levelTally({ close: 1, fair: 2, rough: 3 })).toBe(
      'Of these counts, 1 is close, 2 fair and 3 rough.',
    );
    expect(levelTally({ close: 0, fair: 0, rough: 0 })).toBe('');
  });
});

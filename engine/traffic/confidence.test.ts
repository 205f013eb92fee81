import { describe, expect, it } from 'vitest';
import type { ConfidenceBand, ConfidenceTable } from './confidence.ts';
import { crowdingOf, trafficConfidence } from './confidence.ts';
import { TRAFFIC_CONFIDENCE } from './confidence-table.ts';

function band(
  sceneBees: number,
  sampleFps: number,
  meanNear: number,
  [inP, inR, outP, outR]: [number, number, number, number],
): ConfidenceBand {
  return {
    sceneBees,
    crowding: crowdingOf(sceneBees),
    sampleFps,
    meanNear,
    in: { precision: inP, recall: inR, passages: 50 },
    out: { precision: outP, recall: outR, passages: 50 },
  };
}

const TABLE: ConfidenceTable = {
  benchmark: 'synthetic entrance benchmark',
  feed: 'noise',
  variant: 'product',
  date: '2026-12-06',
  commit: 'abc1234',
  cameras: ['hive-entrance'],
  clipsPerCamera: 3,
  clipSeconds: 60,
  bands: [
    band(5, 5, 3, [0.9, 0.9, 0.88, 0.95]),
    band(15, 5, 10, [0.92, 0.4, 0.86, 0.45]),
    band(40, 5, 25, [0.97, 0.2, 0.97, 0.4]),
    band(15, 10, 11, [0.8, 0.8, 0.75, 0.9]),
  ],
};

describe('trafficConfidence', () => {
  it('picks the nearest density band on a ratio scale, at the nearest sample rate', () => {
    expect(trafficConfidence(2, 5, TABLE)!.band.sceneBees).toBe(5);
    // Between bands at 3 and 10 bees the ratio midpoint is 5.6 (sqrt(4 x 11) - 1), not 6.5.
    expect(trafficConfidence(5, 5, TABLE)!.band.sceneBees).toBe(5);
    expect(trafficConfidence(6, 5, TABLE)!.band.sceneBees).toBe(15);
    expect(trafficConfidence(60, 5, TABLE)!.band.sceneBees).toBe(40);
    expect(trafficConfidence(0, 5, TABLE)!.band.crowding).toBe('quiet');
    // A 12 fps video is read at 10 fps, the only band there.
    expect(trafficConfidence(3, 12, TABLE)!.band).toMatchObject({ sampleFps: 10, sceneBees: 15 });
  });

  it('calls a count close, fair or rough from its worst figure, and says which way it leans', () => {
    expect(trafficConfidence(3, 5, TABLE)).toMatchObject({ level: 'close', leans: null });
    expect(trafficConfidence(11, 10, TABLE)).toMatchObject({ level: 'fair', leans: null });
    const busy = trafficConfidence(10, 5, TABLE)!;
    expect(busy).toMatchObject({ level: 'rough', leans: 'under' });
    expect(busy.source).toBe(
      'synthetic entrance benchmark (the detector’s errors simulated), 2026-12-06',
    );
    const over = { ...TABLE, bands: [band(15, 5, 10, [0.5, 0.9, 0.6, 0.9])] };
    expect(trafficConfidence(10, 5, over)).toMatchObject({ level: 'rough', leans: 'over' });
  });

  it('has nothing to say without a table, or without a density', () => {
    expect(trafficConfidence(4, 5, { ...TABLE, bands: [] })).toBeNull();
    expect(trafficConfidence(Number.NaN, 5, TABLE)).toBeNull();
  });

  it('ships a table the bench wrote: the three scene densities at 5 fps, figures in 0-1', () => {
    const at5 = TRAFFIC_CONFIDENCE.bands.filter((b) => b.sampleFps === 5);
    expect(at5.map((b) => b.sceneBees)).toEqual([5, 15, 40]);
    // Busier scenes show more bees near the entrance: the bands are in the product's measure.
    expect(at5.map((b) => b.meanNear)).toEqual(
      [...at5.map((b) => b.meanNear)].sort((a, b) => a - b),
    );
    const figures = TRAFFIC_CONFIDENCE.bands.flatMap((b) => [
      b.in.precision,
      b.in.recall,
      b.out.precision,
      b.out.recall,
    ]);
    expect(figures.every((v) => v >= 0 && v <= 1)).toBe(true);
    expect(TRAFFIC_CONFIDENCE.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });
});

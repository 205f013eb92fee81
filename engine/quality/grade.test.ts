import { describe, expect, it } from 'vitest';
import type { Detection, QualitySignals, Track } from '../types.ts';
import { frameLook } from './frame-look.ts';
import { gradeQuality, gradeValue, qualitySignals } from './grade.ts';
import type { QualityThresholds } from './thresholds.ts';

const signals = (over: Partial<QualitySignals> = {}): QualitySignals => ({
  sizeRatio: 1,
  zoom: 1,
  scoreRatio: 3,
  weakShare: 0.1,
  sharpness: 1,
  brightness: 0.5,
  clippedShare: 0,
  shortTrackShare: null,
  ...over,
});

const thresholds: QualityThresholds = {
  sizeOff: { direction: 'above', uncertain: 0.25, poor: 0.5 },
  scoreRatio: { direction: 'below', uncertain: 2.5, poor: 2 },
  weakShare: { direction: 'above', uncertain: 0.4 },
  sharpness: { direction: 'below', uncertain: 0.5, poor: 0.2 },
  darkness: { direction: 'below', uncertain: 0.15 },
  brightness: { direction: 'above', uncertain: 0.85 },
  clippedShare: { direction: 'above', uncertain: 0.2 },
  shortTrackShare: { direction: 'above', uncertain: 0.5 },
};

describe('gradeQuality', () => {
  it('grades footage like the training footage good', () => {
    const q = gradeQuality(signals(), thresholds);
    expect(q.grade).toBe('good');
    expect(q.reason).toMatch(/like the footage the model learnt from/);
  });

  it('says when bees look much larger or far smaller than the model learnt', () => {
    expect(gradeQuality(signals({ sizeRatio: 1.5, zoom: 0.67 }), thresholds)).toMatchObject({
      grade: 'uncertain',
      reason: 'Bees look much larger than in our training footage; counts may be off.',
    });
    const smaller = gradeQuality(signals({ sizeRatio: 0.5 }), thresholds);
    expect(smaller.grade).toBe('poor');
    expect(smaller.reason).toMatch(/^Bees look far smaller/);
  });

  it('takes the worst grade, and at that grade the first signal in order', () => {
    const q = gradeQuality(
      signals({ sizeRatio: 1.4, scoreRatio: 1.5, sharpness: 0.4 }),
      thresholds,
    );
    expect(q.grade).toBe('poor');
    expect(q.reason).toMatch(/very unsure/);
    const u = gradeQuality(signals({ sharpness: 0.4, weakShare: 0.6 }), thresholds);
    expect(u.grade).toBe('uncertain');
    expect(u.reason).toMatch(/blurred/);
  });

  it('leaves out what it cannot judge, and says so when too few bees were found', () => {
    const q = gradeQuality(
      signals({ sizeRatio: null, scoreRatio: null, weakShare: null }),
      thresholds,
    );
    expect(q.grade).toBe('good');
    expect(q.reason).toMatch(/Too few bees/);
  });

  it('grades a value against either direction of bound', () => {
    expect(gradeValue(0.3, { direction: 'above', uncertain: 0.2 })).toBe('uncertain');
    expect(gradeValue(0.3, { direction: 'below', uncertain: 0.2 })).toBe('good');
    expect(gradeValue(0.1, { direction: 'below', uncertain: 0.2, poor: 0.15 })).toBe('poor');
    expect(gradeValue(null, { direction: 'below', uncertain: 0.2 })).toBe('good');
  });
});

const bee = (score: number, cls: Detection['cls'] = 'bee'): Detection => ({
  cls,
  score,
  box: { x: 0, y: 0, width: 10, height: 10 },
});

const track = (id: number, firstFrame: number, lastFrame: number): Track => ({
  id,
  cls: 'bee',
  firstFrame,
  lastFrame,
  hits: lastFrame - firstFrame + 1,
  boxes: [],
});

describe('qualitySignals', () => {
  const base = {
    looks: [],
    tracks: [],
    sampleFps: 5,
    zoom: 1,
    sizeRatio: 1.1,
    thresholdFor: () => 0.2,
  };

  it('takes scores relative to the display threshold, and the share under twice it', () => {
    const s = qualitySignals({
      ...base,
      kind: 'image',
      frames: [{ detections: [bee(0.3), bee(0.6), bee(0.8), bee(0.9), bee(0.9, 'hornet')] }],
    });
    expect(s.scoreRatio).toBeCloseTo((1.5 + 3 + 4 + 4.5) / 4);
    expect(s.weakShare).toBeCloseTo(0.25);
    expect(s.shortTrackShare).toBeNull();
  });

  it('judges no scores from fewer than four honeybees', () => {
    const s = qualitySignals({ ...base, kind: 'image', frames: [{ detections: [bee(0.9)] }] });
    expect(s.scoreRatio).toBeNull();
    expect(s.weakShare).toBeNull();
  });

  it('counts a video track under a second as a fragment', () => {
    const s = qualitySignals({
      ...base,
      kind: 'video',
      frames: [],
      tracks: [track(1, 0, 20), track(2, 3, 5), track(3, 10, 30), track(4, 12, 13)],
    });
    expect(s.shortTrackShare).toBeCloseTo(0.5);
  });
});

describe('frameLook', () => {
  const frame = (pixel: (x: number, y: number) => number) => {
    const width = 64;
    const height = 32;
    const data = new Uint8Array(width * height * 3);
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++)
        data.fill(pixel(x, y), (y * width + x) * 3, (y * width + x) * 3 + 3);
    }
    return { index: 0, timeS: 0, width, height, data };
  };

  it('finds a fine pattern sharper than a smooth ramp of the same contrast', () => {
    const fine = frameLook(
      frame((x, y) => ((x + y) % 2 ? 200 : 50)),
      1,
    );
    const ramp = frameLook(
      frame((x) => 50 + (150 * x) / 63),
      1,
    );
    expect(fine.sharpness).toBeGreaterThan(ramp.sharpness * 10);
    expect(fine.brightness).toBeCloseTo(125 / 255, 1);
  });

  it('measures black and white pixels', () => {
    const look = frameLook(
      frame((x) => (x < 32 ? 0 : 128)),
      1,
    );
    expect(look.clippedShare).toBeCloseTo(0.5, 1);
  });
});

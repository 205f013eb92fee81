import { describe, expect, it } from 'vitest';
import { makeDetection } from '../detection/detection.ts';
import type { AutoZoomCard } from '../detection/zoom.ts';
import type { Detection, ProductClass } from '../types.ts';
import type { CalibrationFrame, FitInput } from './fit.ts';
import {
  calibrationShortfall,
  CalibrationInputError,
  fitCalibration,
  gainOf,
  zoomFromTruth,
  zoomsToDetect,
} from './fit.ts';

const autoZoom: AutoZoomCard = {
  insectPx: 40,
  quantile: 0.75,
  minInsects: 4,
  tolerance: 1.25,
  min: 0.5,
  max: 2,
};
const card = { score: 0.2, perClass: { pollen: 0.2, drone: 0.2, hornet: 0.3 } };

/** A frame of `n` corrected honeybees with square boxes of `side` source px. */
const frame = (
  file: string,
  n: number,
  side = 100,
  cls: ProductClass = 'bee',
): CalibrationFrame => ({
  file,
  inputScale: 0.4,
  truth: Array.from({ length: n }, (_, i) => ({
    cls,
    box: { x: i * 2 * side, y: 0, width: side, height: side },
  })),
});
/** Detections scored `scores`, of `cls`. */
const found = (scores: readonly number[], cls: ProductClass = 'bee'): Detection[] =>
  scores.map((s, i) => makeDetection(cls, s, { x: i * 10, y: 0, width: 8, height: 8 }));

describe('calibrationShortfall', () => {
  it('asks for 5 frames from 2 files', () => {
    const five = ['a', 'a', 'b', 'b', 'b'].map((f) => frame(f, 3));
    expect(calibrationShortfall(five)).toBeNull();
    expect(calibrationShortfall(five.slice(0, 4))).toMatch(/at least 5 corrected frames.*4 from 2/);
    expect(calibrationShortfall(five.map((f) => ({ ...f, file: 'a' })))).toMatch(/5 from 1/);
  });
});

describe('zoomFromTruth', () => {
  it('brings the corrected bees to the learnt size, on the quarter-octave grid', () => {
    // 100 px at 0.4: 40 input px, the learnt size
    expect(zoomFromTruth([frame('a', 6, 100)], autoZoom)).toBe(1);
    // 50 px at 0.4: 20 px, half the learnt size: zoom 2
    expect(zoomFromTruth([frame('a', 6, 50)], autoZoom)).toBe(2);
    // 140 px at 0.4: 56 px; 40 / 56 = 0.71
    expect(zoomFromTruth([frame('a', 6, 140)], autoZoom)).toBeCloseTo(0.7071, 3);
    // beyond the card's range: clamped
    expect(zoomFromTruth([frame('a', 6, 20)], autoZoom)).toBe(2);
  });

  it('leaves the zoom to auto-zoom with too few honeybees or no auto-zoom', () => {
    expect(zoomFromTruth([frame('a', 3)], autoZoom)).toBeNull();
    expect(zoomFromTruth([frame('a', 3, 100, 'hornet'), frame('b', 3)], autoZoom)).toBeNull();
    expect(zoomFromTruth([frame('a', 6)], undefined)).toBeNull();
  });
});

describe('fitCalibration', () => {
  /** Five frames of 10 bees where the model also scores 6 background blobs at 0.3. */
  const frames = ['a', 'a', 'b', 'b', 'c'].map((f) => frame(f, 10));
  const raw = frames.map(() => [
    ...found([0.9, 0.85, 0.8, 0.8, 0.75, 0.7, 0.7, 0.65, 0.6, 0.55]),
    ...found([0.3, 0.3, 0.28, 0.3, 0.31, 0.29]),
  ]);
  const input: FitInput = {
    frames,
    card,
    autoZoom,
    uncalibrated: raw,
    detectionsAt: (i) => raw[i]!,
  };

  it('raises a threshold the background passes, and measures the gain leave one frame out', () => {
    const fit = fitCalibration(input);
    expect(fit.zoom).toBe(1);
    expect(fit.thresholds.honeybee).toBeGreaterThan(0.31);
    expect(fit.thresholds.honeybee).toBeLessThanOrEqual(0.55);
    expect(fit.frames).toBe(5);
    expect(fit.files).toBe(3);
    expect(fit.gain.uncalibrated_count_error_pct).toBe(60);
    expect(fit.gain.calibrated_count_error_pct).toBe(0);
    expect(fit.gain.significant).toBe(true);
    expect(fit.perFrame).toEqual(
      frames.map(() => ({ truth: 10, uncalibrated: 16, calibrated: 10 })),
    );
  });

  it('scores each frame with what the others alone fitted', () => {
    // Frame 4's bees score 0.3 like the others' background: fitted on the others, its bees
    // fall under the threshold, so the leave-one-out figure shows the miss.
    const odd = raw.map((d, i) => (i === 4 ? found(Array(10).fill(0.3)) : d));
    const fit = fitCalibration({ ...input, uncalibrated: odd, detectionsAt: (i) => odd[i]! });
    expect(fit.perFrame[4]).toEqual({ truth: 10, uncalibrated: 10, calibrated: 0 });
  });

  it('fits a pollen threshold where the corrections show pollen over-counted', () => {
    // Every frame: 10 bees the model scores 0.5, and two pollen boxes on nothing scored 0.6,
    // which no honeybee threshold can remove without the bees.
    const withPollen = frames.map(() => [
      ...found(Array(10).fill(0.5)),
      ...found([0.6, 0.6], 'pollen'),
    ]);
    const fit = fitCalibration({
      ...input,
      uncalibrated: withPollen,
      detectionsAt: (i) => withPollen[i]!,
    });
    expect(fit.thresholds.honeybee).toBe(0.2);
    expect(fit.thresholds.pollen).toBeGreaterThan(0.6);
    expect(fit.thresholds.drone).toBeUndefined();
    expect(fit.gain.calibrated_count_error_pct).toBe(0);
  });

  it('refuses too few frames', () => {
    expect(() => fitCalibration({ ...input, frames: frames.slice(0, 4) })).toThrow(
      CalibrationInputError,
    );
  });

  it('lists every zoom the fit will ask for', () => {
    const mixed = [
      frame('a', 6, 50),
      frame('a', 6, 50),
      frame('b', 6, 50),
      frame('b', 6, 100),
      frame('c', 6, 100),
    ];
    const wanted = zoomsToDetect(mixed, autoZoom);
    const asked: string[] = [];
    const dets = mixed.map(() => found([0.9]));
    fitCalibration({
      frames: mixed,
      card,
      autoZoom,
      uncalibrated: dets,
      detectionsAt: (i, zoom) => {
        asked.push(`${i}:${zoom}`);
        return dets[i]!;
      },
    });
    const listed = new Set(wanted.map((w) => `${w.frame}:${w.zoom}`));
    for (const a of asked) expect(listed).toContain(a);
  });
});

describe('gainOf', () => {
  it('calls a gain that one frame carries inside the noise', () => {
    const gain = gainOf([
      { truth: 10, uncalibrated: 20, calibrated: 10 },
      { truth: 10, uncalibrated: 10, calibrated: 10 },
      { truth: 10, uncalibrated: 10, calibrated: 11 },
      { truth: 10, uncalibrated: 10, calibrated: 10 },
      { truth: 10, uncalibrated: 10, calibrated: 11 },
    ]);
    expect(gain.uncalibrated_count_error_pct).toBe(20);
    expect(gain.calibrated_count_error_pct).toBe(4);
    expect(gain.noise_pct).toBeGreaterThan(16);
    expect(gain.significant).toBe(false);
  });
});

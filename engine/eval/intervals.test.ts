import { describe, expect, it } from 'vitest';
import type { Box, ProductClass } from '../types.ts';
import type { EvalClass } from './labels.ts';
import {
  bootstrapBoxChanges,
  bootstrapBoxIntervals,
  bootstrapCropChanges,
  bootstrapCropIntervals,
} from './intervals.ts';
import { evaluateBoxes } from './metrics.ts';
import type { CropOutcome, ImageEval, ScoreThresholds } from './metrics.ts';

const box = (x: number, y: number, width: number, height: number): Box => ({ x, y, width, height });
const gt = (cls: EvalClass, b: Box) => ({ cls, box: b });
const pred = (cls: ProductClass, score: number, b: Box) => ({ cls, score, box: b });
const T: ScoreThresholds = { score: 0.5 };
const A = box(0, 0, 10, 10);
const B = box(20, 0, 10, 10);
const ELSEWHERE = box(50, 50, 10, 10);

/** Every bee found. */
const good = (): ImageEval => ({
  gt: [gt('bee', A), gt('bee', B)],
  predictions: [pred('bee', 0.9, A), pred('bee', 0.8, B)],
});
/** One bee missed, one found under the threshold, a confident false positive, a hornet found. */
const poor = (): ImageEval => ({
  gt: [gt('bee', A), gt('bee', B), gt('hornet', ELSEWHERE)],
  predictions: [
    pred('bee', 0.95, box(70, 0, 10, 10)),
    pred('bee', 0.4, A),
    pred('hornet', 0.7, ELSEWHERE),
  ],
});
const mixed = (n: number) => Array.from({ length: n }, (_, i) => (i % 3 === 0 ? poor() : good()));
const width = (i: { low: number; high: number } | null | undefined) => i!.high - i!.low;

describe('bootstrapBoxIntervals', () => {
  it('collapses to the point figures when every resample is the whole set', () => {
    const images = mixed(12);
    const point = evaluateBoxes(images, { thresholds: T });
    // One block as long as the set: each resample is the set itself, in order.
    const intervals = bootstrapBoxIntervals(images, { thresholds: T, block: 12, resamples: 20 });
    expect(intervals.ap50.bee!.low).toBeCloseTo(point.classes.bee!.ap50!, 10);
    expect(intervals.ap50.bee!.high).toBeCloseTo(point.classes.bee!.ap50!, 10);
    expect(intervals.ap50.hornet!.low).toBeCloseTo(point.classes.hornet!.ap50!, 10);
    expect(intervals.count_error_pct!.low).toBeCloseTo(point.count_error_pct!, 10);
    expect(intervals.count_error_pct!.high).toBeCloseTo(point.count_error_pct!, 10);
  });

  it('spans the point figure with a real width on a mixed set, and repeats with its seed', () => {
    const images = mixed(30);
    const point = evaluateBoxes(images, { thresholds: T });
    const intervals = bootstrapBoxIntervals(images, { thresholds: T });
    const bee = intervals.ap50.bee!;
    expect(bee.low).toBeLessThan(point.classes.bee!.ap50!);
    expect(bee.high).toBeGreaterThan(point.classes.bee!.ap50!);
    expect(bee.high).toBeLessThanOrEqual(1);
    expect(intervals.count_error_pct!.low).toBeLessThan(point.count_error_pct!);
    expect(intervals.count_error_pct!.high).toBeGreaterThan(point.count_error_pct!);
    expect(Object.keys(intervals).sort()).toEqual([
      'ap50',
      'block',
      'count_error_pct',
      'level',
      'resamples',
      'seed',
    ]);
    expect(intervals).toMatchObject({ level: 0.95, resamples: 1000, block: 1, seed: 1 });

    expect(bootstrapBoxIntervals(images, { thresholds: T })).toEqual(intervals);
  });

  it('has no interval where every image is right, and a narrower one at a lower level', () => {
    const perfect = bootstrapBoxIntervals([good(), good(), good()], { thresholds: T });
    expect(perfect.ap50.bee).toEqual({ low: 1, high: 1 });
    expect(perfect.count_error_pct).toEqual({ low: 0, high: 0 });

    const images = mixed(30);
    const wide = bootstrapBoxIntervals(images, { thresholds: T, level: 0.95 });
    const narrow = bootstrapBoxIntervals(images, { thresholds: T, level: 0.5 });
    expect(width(narrow.ap50.bee)).toBeLessThan(width(wide.ap50.bee));
  });

  it('widens when runs of consecutive images are alike and resampled together', () => {
    // A clip whose first half is easy and second half hard: frames within a half are alike.
    const clip = [...Array.from({ length: 20 }, good), ...Array.from({ length: 20 }, poor)];
    const single = bootstrapBoxIntervals(clip, { thresholds: T });
    const runs = bootstrapBoxIntervals(clip, { thresholds: T, block: 10 });
    expect(runs.block).toBe(10);
    expect(width(runs.count_error_pct)).toBeGreaterThan(width(single.count_error_pct));
    expect(width(runs.ap50.bee)).toBeGreaterThan(width(single.ap50.bee));
  });

  it('gives null for a class the model cannot detect and for an empty set', () => {
    const intervals = bootstrapBoxIntervals(mixed(6), { thresholds: T, modelClasses: ['bee'] });
    expect(intervals.ap50.hornet).toBeNull();
    expect(intervals.ap50.bee).not.toBeNull();
    const empty = bootstrapBoxIntervals([], { thresholds: T });
    expect(empty.ap50).toEqual({});
    expect(empty.count_error_pct).toBeNull();
  });

  it('rejects settings that cannot make an interval', () => {
    expect(() => bootstrapBoxIntervals(mixed(3), { thresholds: T, block: 0 })).toThrow(/block/);
    expect(() => bootstrapBoxIntervals(mixed(3), { thresholds: T, resamples: 5 })).toThrow(
      /resamples/,
    );
    expect(() => bootstrapBoxIntervals(mixed(3), { thresholds: T, level: 1 })).toThrow(/level/);
  });
});

describe('bootstrapCropIntervals', () => {
  const crop = (truth: 'bee' | 'pollen', predicted: 'bee' | 'pollen' | null): CropOutcome => ({
    truth,
    predicted,
  });

  it('is [1, 1] when every crop is right and spans the accuracy otherwise', () => {
    const right = Array.from({ length: 20 }, () => crop('pollen', 'pollen'));
    expect(bootstrapCropIntervals(right).accuracy).toEqual({ low: 1, high: 1 });

    const some = [...right, ...Array.from({ length: 10 }, () => crop('bee', null))];
    const { accuracy } = bootstrapCropIntervals(some);
    expect(accuracy!.low).toBeLessThan(20 / 30);
    expect(accuracy!.high).toBeGreaterThan(20 / 30);
    expect(accuracy!.low).toBeGreaterThan(0.4);
    expect(bootstrapCropIntervals([]).accuracy).toBeNull();
  });
});

describe('bootstrapBoxChanges (paired)', () => {
  const both = { candidate: { thresholds: T }, baseline: { thresholds: T } };

  it('is exactly zero, interval and all, for a model against itself', () => {
    const images = mixed(30);
    const changes = bootstrapBoxChanges(images, images, both);
    expect(changes.ap50.bee).toEqual({ value: 0, low: 0, high: 0 });
    expect(changes.ap50.hornet).toEqual({ value: 0, low: 0, high: 0 });
    expect(changes.count_error_pct).toEqual({ value: 0, low: 0, high: 0 });
  });

  it('gives the change of the point figures, and an interval clear of zero for a candidate that fixes the hard images', () => {
    const baseline = mixed(30);
    // The candidate fixes every third image; elsewhere it answers as the baseline does.
    const candidate = baseline.map((im, i) =>
      i % 3 === 0
        ? { gt: im.gt, predictions: [...good().predictions, pred('hornet', 0.7, ELSEWHERE)] }
        : im,
    );
    const changes = bootstrapBoxChanges(candidate, baseline, both);
    const pointA = evaluateBoxes(candidate, { thresholds: T });
    const pointB = evaluateBoxes(baseline, { thresholds: T });
    expect(changes.ap50.bee!.value).toBeCloseTo(
      pointA.classes.bee!.ap50! - pointB.classes.bee!.ap50!,
      10,
    );
    expect(changes.ap50.bee!.low).toBeGreaterThan(0);
    expect(changes.count_error_pct!.value).toBeCloseTo(
      pointA.count_error_pct! - pointB.count_error_pct!,
      10,
    );
    expect(changes.count_error_pct!.high).toBeLessThan(0);
  });

  it('has no change for a class either model cannot detect, and wants the same images', () => {
    const images = mixed(6);
    const changes = bootstrapBoxChanges(images, images, {
      candidate: { thresholds: T },
      baseline: { thresholds: T, modelClasses: ['bee'] },
    });
    expect(changes.ap50.hornet).toBeNull();
    expect(changes.ap50.bee).not.toBeNull();
    expect(() => bootstrapBoxChanges(images, images.slice(1), both)).toThrow(/same images/);
  });
});

describe('bootstrapCropChanges (paired)', () => {
  const crop = (truth: 'bee' | 'pollen', predicted: 'bee' | 'pollen' | null): CropOutcome => ({
    truth,
    predicted,
  });

  it('is zero against itself and clear of zero when the candidate fixes crops', () => {
    const baseline = Array.from({ length: 40 }, (_, i) =>
      crop('pollen', i % 4 === 0 ? 'bee' : 'pollen'),
    );
    expect(bootstrapCropChanges(baseline, baseline).accuracy).toEqual({
      value: 0,
      low: 0,
      high: 0,
    });
    const candidate = baseline.map((o) => crop(o.truth, 'pollen'));
    const { accuracy } = bootstrapCropChanges(candidate, baseline);
    expect(accuracy!.value).toBeCloseTo(0.25, 10);
    expect(accuracy!.low).toBeGreaterThan(0);
    expect(() => bootstrapCropChanges(candidate, baseline.slice(2))).toThrow(/same crops/);
  });
});

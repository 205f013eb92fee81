import { describe, expect, it } from 'vitest';
import { accuracySentence, hiveAccuracy, iou, matchedCount } from './accuracy.ts';

const box = (x: number, y: number, width = 10, height = 10) => ({ x, y, width, height });
const frame = (labels: ReturnType<typeof box>[], model: ReturnType<typeof box>[]) => ({
  labels: labels.map((b) => ({ box: b })),
  model: model.map((b) => ({ box: b })),
});

describe('hive accuracy maths', () => {
  it('IoU of equal, half-shifted and disjoint boxes', () => {
    expect(iou(box(0, 0), box(0, 0))).toBe(1);
    expect(iou(box(0, 0), box(5, 0))).toBeCloseTo(50 / 150);
    expect(iou(box(0, 0), box(20, 20))).toBe(0);
  });

  it('matches one to one at IoU >= 0.5, best pairs first', () => {
    // Two model boxes on one label: only one counts.
    expect(matchedCount([box(0, 0)], [box(0, 0), box(1, 0)])).toBe(1);
    // A box shifted by 3 px (IoU 70/130 = 0.54) matches; by 4 px (60/140 = 0.43) does not.
    expect(matchedCount([box(0, 0)], [box(3, 0)])).toBe(1);
    expect(matchedCount([box(0, 0)], [box(4, 0)])).toBe(0);
  });

  it('pools the count error and the found share over insects, as documented', () => {
    // Five frames: 10 corrected insects in all.
    const frames = [
      frame([box(0, 0), box(20, 0)], [box(0, 0), box(20, 0)]), // exact: |2-2| = 0, 2 found
      frame([box(0, 0), box(20, 0)], [box(0, 0)]), // one missed: |1-2| = 1, 1 found
      frame([box(0, 0), box(20, 0)], [box(0, 0), box(20, 0), box(40, 0)]), // one extra: 1, 2 found
      frame([box(0, 0), box(20, 0)], [box(50, 50), box(70, 70)]), // right count, wrong place: 0, 0 found
      frame([box(0, 0), box(20, 0)], [box(1, 1), box(21, 1)]), // close boxes: 0, 2 found
    ];
    const a = hiveAccuracy(frames);
    expect(a).toMatchObject({ frames: 5, enough: true, insects: 10, modelInsects: 10, found: 7 });
    expect(a.countErrorPct).toBeCloseTo(20); // (0 + 1 + 1 + 0 + 0) / 10
    expect(a.foundPct).toBeCloseTo(70);
    expect(accuracySentence(a)).toBe(
      "On 5 frames you corrected at this hive, the model's counts were within 20 %, and it found 70 % of the insects.",
    );
  });

  it('says nothing below five frames or without insects', () => {
    const four = Array.from({ length: 4 }, () => frame([box(0, 0)], [box(0, 0)]));
    expect(hiveAccuracy(four).enough).toBe(false);
    expect(accuracySentence(hiveAccuracy(four))).toBeNull();
    const empty = Array.from({ length: 5 }, () => frame([], []));
    expect(hiveAccuracy(empty).countErrorPct).toBeNull();
    expect(accuracySentence(hiveAccuracy(empty))).toBeNull();
  });
});

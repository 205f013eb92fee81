import { describe, expect, it } from 'vitest';
import type { Box } from '../engine/types.ts';
import { scoreHota } from './hota.ts';
import type { FrameObjects } from './track-metrics.ts';

const box = (x: number, size = 10): Box => ({ x, y: 0, width: size, height: size });
/** Two bees walking apart over `n` frames, under ids `a` and `b` (per frame, from `split`). */
function frames(n: number, ids: (frame: number) => [number, number]): FrameObjects[] {
  return Array.from({ length: n }, (_, f) => {
    const [a, b] = ids(f);
    return {
      frame: f,
      objects: [
        { id: a, box: box(f) },
        { id: b, box: box(100 + f) },
      ],
    };
  });
}

describe('scoreHota', () => {
  it('is 1 for a tracker that matches the truth exactly', () => {
    const gt = frames(10, () => [1, 2]);
    expect(
      scoreHota(
        gt,
        frames(10, () => [7, 8]),
      ),
    ).toEqual({ hota: 1, detA: 1, assA: 1 });
  });

  it('keeps detection and loses association when the ids swap half way', () => {
    const gt = frames(10, () => [1, 2]);
    const swapped = frames(10, (f) => (f < 5 ? [1, 2] : [2, 1]));
    const s = scoreHota(gt, swapped);
    expect(s.detA).toBeCloseTo(1);
    // Each identity is paired with each track on half its frames: AssA = 5 / (10 + 10 - 5).
    expect(s.assA).toBeCloseTo(1 / 3);
    expect(s.hota).toBeCloseTo(Math.sqrt(1 / 3));
  });

  it('counts a missed box and an extra one against detection', () => {
    const gt = frames(4, () => [1, 2]);
    const hyp = gt.map((f) => ({
      frame: f.frame,
      objects: [f.objects[0]!, { id: 9, box: box(500) }],
    }));
    const s = scoreHota(gt, hyp);
    // 4 true positives, 4 misses, 4 false boxes at every threshold.
    expect(s.detA).toBeCloseTo(4 / 12);
    expect(s.assA).toBeCloseTo(1);
  });

  it('weighs localisation: a box shifted to IoU 0.5 passes half the thresholds', () => {
    const gt: FrameObjects[] = [{ frame: 0, objects: [{ id: 1, box: box(0, 30) }] }];
    // Shifted 10 px of 30: IoU = 600 / 1200 = 0.5.
    const hyp: FrameObjects[] = [{ frame: 0, objects: [{ id: 1, box: box(10, 30) }] }];
    const s = scoreHota(gt, hyp);
    expect(s.detA).toBeCloseTo(10 / 19);
  });
});

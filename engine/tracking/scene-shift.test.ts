import { describe, expect, it } from 'vitest';
import { seededRandom } from '../random.ts';
import { estimateSceneShift, NO_SHIFT } from './scene-shift.ts';
import type { ScenePoint } from './scene-shift.ts';

/** A crowd of `n` bees of size ~40 on a 1920x1080 picture, at least a body length apart. */
function crowd(n: number, seed = 1): ScenePoint[] {
  const random = seededRandom(seed);
  const points: ScenePoint[] = [];
  while (points.length < n) {
    const p = { x: 100 + random() * 1700, y: 100 + random() * 800, size: 36 + random() * 8 };
    if (points.every((q) => Math.hypot(q.x - p.x, q.y - p.y) > 45)) points.push(p);
  }
  return points;
}

const moved = (points: ScenePoint[], dx: number, dy: number) =>
  points.map((p) => ({ ...p, x: p.x + dx, y: p.y + dy }));

describe('estimateSceneShift', () => {
  it('finds a pan of over a body length in a crowd, beside jitter, misses and newcomers', () => {
    const random = seededRandom(7);
    const before = crowd(40);
    const after = [
      // A pan of 96 px right to left: 2.5 body lengths; each box jitters by a few pixels.
      ...moved(before, -96, 3)
        .slice(4) // four bees missed on the later frame
        .map((p) => ({ ...p, x: p.x + (random() - 0.5) * 6, y: p.y + (random() - 0.5) * 6 })),
      ...crowd(5, 99), // five newcomers (entering at the edge, or found only now)
    ];
    const shift = estimateSceneShift(before, after);
    expect(shift.dx).toBeCloseTo(-96, -0.5); // within ~2 px
    expect(shift.dy).toBeCloseTo(3, -0.5);
  });

  it('keeps a still camera still, even when a few bees walk the same way', () => {
    const before = crowd(20);
    // Five bees walk 60 px right; the other fifteen rest.
    const after = before.map((p, i) => (i < 5 ? { ...p, x: p.x + 60 } : p));
    expect(estimateSceneShift(before, after)).toEqual(NO_SHIFT);
  });

  it('moves the scene when most bees move together, and not for one or two', () => {
    const before = crowd(20);
    expect(estimateSceneShift(before, moved(before, 50, -20))).toEqual({ dx: 50, dy: -20 });
    // Too few insects to tell a pan from bees walking.
    expect(estimateSceneShift(before.slice(0, 2), moved(before.slice(0, 2), 50, 0))).toEqual(
      NO_SHIFT,
    );
  });

  it('finds nothing in unrelated frames (a cut)', () => {
    expect(estimateSceneShift(crowd(15, 3), crowd(15, 4))).toEqual(NO_SHIFT);
  });

  it('pairs only boxes of like size', () => {
    const before = crowd(10);
    const after = moved(before, 70, 0).map((p) => ({ ...p, size: p.size * 2 }));
    expect(estimateSceneShift(before, after)).toEqual(NO_SHIFT);
  });
});

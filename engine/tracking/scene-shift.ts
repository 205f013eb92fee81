/**
 * How far the whole scene moved between two analysed frames: a hand-held camera panning along a
 * hive entrance, or shaking. Judged from the insects themselves (no pixels): the shift that puts
 * most of one frame's insects onto the next frame's.
 *
 * Why: the tracker predicts each insect from its own motion, and a new track has none yet. When
 * the camera pans about a bee's length a sampled frame, every bee's nearest box on the next frame
 * is as likely its neighbour's as its own, and tracks swap and fragment in the crowd (unique
 * honeybees ran 40 % high on the hive frames filmed by a window panning at 480 px/s;
 * training/README.md). Moving every track by the scene's shift first leaves only the bees' own
 * motion to predict.
 *
 * A still camera must stay still: a shift is taken only when it explains clearly more insects
 * than no shift at all, and at least `MIN_SUPPORT` of them and `MIN_SHARE` of the earlier
 * frame's, so a few bees walking the same way past resting ones never move the whole scene.
 */

import { quantile } from '../detection/zoom.ts';

/** An insect's centre and size (the square root of its box's area), in frame pixels. */
export interface ScenePoint {
  x: number;
  y: number;
  size: number;
}

export interface SceneShift {
  dx: number;
  dy: number;
}

export const NO_SHIFT: SceneShift = Object.freeze({ dx: 0, dy: 0 });

/** A shifted insect meets one on the next frame within this many of its sizes. */
export const MEET_SIZES = 0.35;
/** Two boxes can be one insect only when their sizes differ by less than this factor. */
const MAX_SIZE_RATIO = 1.5;
/** The furthest a scene is looked for, in insect sizes (a fast pan at a low sample rate). */
const MAX_SHIFT_SIZES = 6;
/** Insects a shift must explain, at least... */
const MIN_SUPPORT = 3;
/** ...and this share of the earlier frame's... */
const MIN_SHARE = 0.3;
/** ...and this many times as many as no shift explains. */
const OVER_STILL = 1.5;
/** Displacement bins, in insect sizes, from which candidate shifts are drawn. */
const BIN_SIZES = 0.5;
const CANDIDATE_BINS = 8;

export function scenePoint(box: { x: number; y: number; width: number; height: number }) {
  return {
    x: box.x + box.width / 2,
    y: box.y + box.height / 2,
    size: Math.sqrt(Math.max(box.width * box.height, 1e-6)),
  };
}

/**
 * The scene's shift from `before` to `after` (add it to a position on `before` to find it on
 * `after`), or `NO_SHIFT` when no shift clearly beats none.
 */
export function estimateSceneShift(
  before: readonly ScenePoint[],
  after: readonly ScenePoint[],
): SceneShift {
  if (before.length < MIN_SUPPORT || after.length < MIN_SUPPORT) return NO_SHIFT;
  const still = support(before, after, NO_SHIFT).count;
  const needed = Math.max(MIN_SUPPORT, Math.ceil(MIN_SHARE * before.length), OVER_STILL * still);
  let best: { shift: SceneShift; count: number } | undefined;
  for (const candidate of candidateShifts(before, after)) {
    const { count, refined } = support(before, after, candidate);
    if (count > still && count >= needed && (!best || count > best.count)) {
      best = { shift: refined, count };
    }
  }
  return best ? best.shift : NO_SHIFT;
}

/** The mean displacement of each of the most crowded displacement bins. */
function candidateShifts(before: readonly ScenePoint[], after: readonly ScenePoint[]) {
  const unit = BIN_SIZES * median(before.map((p) => p.size));
  const bins = new Map<string, { n: number; dx: number; dy: number }>();
  for (const p of before) {
    for (const q of after) {
      if (!sameSize(p, q)) continue;
      const dx = q.x - p.x;
      const dy = q.y - p.y;
      if (Math.hypot(dx, dy) > MAX_SHIFT_SIZES * p.size) continue;
      const key = `${Math.round(dx / unit)},${Math.round(dy / unit)}`;
      const bin = bins.get(key) ?? { n: 0, dx: 0, dy: 0 };
      bin.n++;
      bin.dx += dx;
      bin.dy += dy;
      bins.set(key, bin);
    }
  }
  return [...bins.values()]
    .sort((a, b) => b.n - a.n)
    .slice(0, CANDIDATE_BINS)
    .map((bin) => ({ dx: bin.dx / bin.n, dy: bin.dy / bin.n }));
}

/**
 * How many earlier insects, moved by `shift`, meet a later one; and the shift refined to the
 * median of those meetings' displacements.
 */
function support(before: readonly ScenePoint[], after: readonly ScenePoint[], shift: SceneShift) {
  const dxs: number[] = [];
  const dys: number[] = [];
  for (const p of before) {
    const x = p.x + shift.dx;
    const y = p.y + shift.dy;
    let nearest: ScenePoint | undefined;
    let nearestDistance = MEET_SIZES * p.size;
    for (const q of after) {
      const distance = Math.hypot(q.x - x, q.y - y);
      if (distance <= nearestDistance && sameSize(p, q)) {
        nearest = q;
        nearestDistance = distance;
      }
    }
    if (nearest) {
      dxs.push(nearest.x - p.x);
      dys.push(nearest.y - p.y);
    }
  }
  const refined = dxs.length ? { dx: median(dxs), dy: median(dys) } : shift;
  return { count: dxs.length, refined };
}

function sameSize(p: ScenePoint, q: ScenePoint): boolean {
  return Math.max(p.size, q.size) < MAX_SIZE_RATIO * Math.min(p.size, q.size);
}

/** The middle value (the mean of the middle two for an even count). */
export function median(xs: readonly number[]): number {
  return quantile(
    [...xs].sort((a, b) => a - b),
    0.5,
  );
}

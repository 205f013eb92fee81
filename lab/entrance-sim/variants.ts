/**
 * Tracker and counting settings the benchmark compares (`--variant`), each over the product's
 * own (`trackerOptionsFor` at the sample rate, the shipped model's thresholds).
 */
import type { TrackerOptions } from '../../engine/tracking/tracker.ts';
import type { TrafficOptions } from '../../engine/traffic/count.ts';
import { entranceSide } from '../../engine/traffic/entrance.ts';
import type { Entrance } from '../../engine/types.ts';

export interface VariantContext {
  fps: number;
  entrance: Entrance;
  width: number;
  height: number;
}

export interface Variant {
  description: string;
  tracker?: (ctx: VariantContext) => TrackerOptions;
  traffic?: TrafficOptions;
}

/** A track last seen inside the entrance strip (or its band) went in. */
const exitAtEntrance = (
  { entrance, width, height, fps }: VariantContext,
  exitS = 0,
): TrackerOptions => ({
  exit: (boxes) => {
    const box = boxes.at(-1)!;
    const side = entranceSide(
      entrance,
      [(box.x + box.width / 2) / width, (box.y + box.height / 2) / height],
      0.03,
    );
    return side === 'hive' || side === 'band';
  },
  exitMaxAge: Math.max(1, Math.round(exitS * fps)),
});

/** The reach grows per second unmatched as it did per frame at 5 fps. */
const reachInTime = ({ fps }: VariantContext): TrackerOptions => ({ missedReach: 0.5 * (5 / fps) });

export const VARIANTS: Record<string, Variant> = {
  product: { description: 'the product as shipped' },
  before: {
    description: 'the tracker before issue 56: reach grown per frame, no exit at the entrance',
    tracker: () => ({ missedReach: 0.5, exit: () => false }),
  },
  exit: {
    description: 'tracks last seen in the entrance end after 1 missed frame',
    tracker: exitAtEntrance,
  },
  reach: { description: 'the reach grows per second missed, not per frame', tracker: reachInTime },
  hungarian: {
    description: 'least total cost assignment',
    tracker: () => ({ assignment: 'hungarian' }),
  },
  'exit+reach': {
    description: 'exit and reach',
    tracker: (ctx) => ({ ...exitAtEntrance(ctx), ...reachInTime(ctx) }),
  },
  'exit0.4+reach': {
    description: 'exit after 0.4 s, and reach',
    tracker: (ctx) => ({ ...exitAtEntrance(ctx, 0.4), ...reachInTime(ctx) }),
  },
  'exit0.2+reach': {
    description: 'exit after 0.2 s, and reach',
    tracker: (ctx) => ({ ...exitAtEntrance(ctx, 0.2), ...reachInTime(ctx) }),
  },
  'exit+reach+hungarian': {
    description: 'exit, reach and hungarian',
    tracker: (ctx) => ({ ...exitAtEntrance(ctx), ...reachInTime(ctx), assignment: 'hungarian' }),
  },
};

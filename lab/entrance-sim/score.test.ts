import { describe, expect, it } from 'vitest';
import { iou } from '../../engine/detection/nms.ts';
import { CAMERAS } from './cameras.ts';
import { FITTED_NOISE, noiseFeed } from './noise.ts';
import { countErrorOf, precisionOf, recallOf, scoreSimCrossings } from './score.ts';
import { beesAt, sampledFrames, simulate } from './simulate.ts';
import type { TrueCrossing } from './simulate.ts';

const truth = (
  timeS: number,
  direction: TrueCrossing['direction'],
  certain = true,
): TrueCrossing => ({
  timeS,
  direction,
  beeId: 1,
  cls: 'bee',
  certain,
});

describe('scoreSimCrossings', () => {
  it('matches passages of one direction within the tolerance, one to one', () => {
    const s = scoreSimCrossings(
      [
        { kind: 'in', timeS: 1.2 },
        { kind: 'in', timeS: 1.4 },
        { kind: 'in', timeS: 9 },
        { kind: 'out', timeS: 5 },
      ],
      [truth(1, 'in'), truth(5.5, 'out'), truth(7, 'out')],
    );
    expect(s.in).toEqual({ labelled: 1, counted: 3, matched: 1 });
    expect(s.out).toEqual({ labelled: 2, counted: 1, matched: 1 });
    expect(precisionOf(s.in)).toBeCloseTo(1 / 3);
    expect(recallOf(s.out)).toBeCloseTo(0.5);
    expect(countErrorOf(s.in)).toBeCloseTo(2);
    expect(countErrorOf(s.out)).toBeCloseTo(-0.5);
  });

  it('neither credits nor blames a passage counted at one the clip does not show whole', () => {
    const s = scoreSimCrossings(
      [
        { kind: 'out', timeS: 0.3 },
        { kind: 'out', timeS: 4 },
      ],
      [truth(0.2, 'out', false), truth(4, 'out'), truth(19.8, 'out', false)],
    );
    expect(s.out).toEqual({ labelled: 1, counted: 1, matched: 1 });
  });
});

describe('the fitted noise feed', () => {
  it("finds bees at about the detector's precision and recall on the hive frames", async () => {
    const sim = simulate({ camera: CAMERAS['hive-entrance'], density: 15, durationS: 60, seed: 1 });
    const feed = noiseFeed(sim, 1);
    let truths = 0;
    let found = 0;
    let boxes = 0;
    let right = 0;
    for (const [k, frame] of sampledFrames(sim, 5).entries()) {
      const bees = beesAt(sim, frame);
      const dets = await feed(k, bees);
      truths += bees.length;
      boxes += dets.length;
      found += bees.filter((b) => dets.some((d) => iou(d.box, b.box) >= 0.5)).length;
      right += dets.filter((d) => bees.some((b) => iou(d.box, b.box) >= 0.5)).length;
    }
    // Misses fitted on the hand-counted runs' labelled frames (experiment 021): 0.11.2 finds
    // 96.6 % of their bees at IoU 0.3 (94.6 % on its held-out ones), more than its card's
    // validation recall (0.86 at IoU 0.5); the jitter loses a few more at 0.5 here. Precision:
    // 0.89 on the hive validation frames (bees).
    expect(found / truths).toBeGreaterThan(0.88);
    expect(found / truths).toBeLessThan(0.97);
    expect(right / boxes).toBeGreaterThan(0.82);
    expect(right / boxes).toBeLessThan(0.95);
    expect(FITTED_NOISE.miss).toBeGreaterThan(0);
  });
});

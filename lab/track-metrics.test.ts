import { describe, expect, it } from 'vitest';
import type { Box } from '../engine/types.ts';
import {
  centreDistance,
  linkIdentities,
  maxWeightMatching,
  scoreTracking,
  trackObjects,
} from './track-metrics.ts';
import type { FrameObjects } from './track-metrics.ts';

const box = (x: number, y = 0, size = 10): Box => ({ x, y, width: size, height: size });

describe('linkIdentities', () => {
  it('links a walking bee across frames and starts a new identity for a newcomer', () => {
    const linked = linkIdentities([
      { frame: 1, boxes: [box(0)] },
      { frame: 2, boxes: [box(3), box(100)] },
      { frame: 3, boxes: [box(6), box(103)] },
    ]);
    expect(linked.map((f) => f.objects.map((o) => o.id))).toEqual([[1], [1, 2], [1, 2]]);
  });

  it('links by centre distance when a fast bee no longer overlaps enough', () => {
    // Boxes 8 px apart at size 10 overlap 0.11 (under 0.2), their centres 0.8 sizes apart.
    expect(
      linkIdentities(
        [
          { frame: 1, boxes: [box(0)] },
          { frame: 2, boxes: [box(8)] },
        ],
        {
          maxCentreDistance: 1,
        },
      )[1]!.objects[0]!.id,
    ).toBe(1);
    expect(
      linkIdentities(
        [
          { frame: 1, boxes: [box(0)] },
          { frame: 2, boxes: [box(8)] },
        ],
        { maxCentreDistance: 0.5 },
      )[1]!.objects[0]!.id,
    ).toBe(2);
  });

  it('links an identity unlabelled on a frame or two again, and not after maxGap', () => {
    const frames = [
      { frame: 1, boxes: [box(0)] },
      { frame: 2, boxes: [] },
      { frame: 3, boxes: [] },
      { frame: 4, boxes: [box(1)] },
    ];
    expect(linkIdentities(frames)[3]!.objects[0]!.id).toBe(1);
    expect(linkIdentities(frames, { maxGap: 1 })[3]!.objects[0]!.id).toBe(2);
  });

  it('gives each previous box to one box only, the nearest', () => {
    const linked = linkIdentities([
      { frame: 1, boxes: [box(0)] },
      { frame: 2, boxes: [box(4), box(1)] },
    ]);
    expect(linked[1]!.objects.map((o) => o.id)).toEqual([2, 1]);
  });

  it('measures centre distance in box sizes', () => {
    expect(centreDistance(box(0), box(10))).toBeCloseTo(1);
  });
});

const seq = (ids: number[][], step = 20): FrameObjects[] =>
  ids.map((row, frame) => ({
    frame,
    objects: row.map((id, k) => ({ id, box: box(k * 100 + frame * 0, 0, step) })),
  }));

describe('scoreTracking', () => {
  const gt = seq([
    [1, 2],
    [1, 2],
    [1, 2],
    [1, 2],
  ]);

  it('scores a perfect tracker 1 on MOTA and IDF1', () => {
    const s = scoreTracking(
      gt,
      seq([
        [7, 8],
        [7, 8],
        [7, 8],
        [7, 8],
      ]),
    );
    expect(s).toMatchObject({ mota: 1, idf1: 1, idSwitches: 0, fragmentations: 0, misses: 0 });
    expect(s.uniqueCountError).toBe(0);
  });

  it('counts a broken track as one switch, one fragmentation and one extra insect', () => {
    // Identity 1 is missed on frame 2 and picked up again by a new track 9.
    const s = scoreTracking(
      gt,
      seq([
        [7, 8],
        [7, 8],
        [0, 8],
        [9, 8],
      ]).map((f) => ({
        ...f,
        objects: f.objects.filter((o) => o.id !== 0),
      })),
    );
    expect(s.misses).toBe(1);
    expect(s.idSwitches).toBe(1);
    expect(s.fragmentations).toBe(1);
    expect(s.hypIds).toBe(3);
    expect(s.uniqueCountError).toBeCloseTo(0.5);
    expect(s.mota).toBeCloseTo(1 - 2 / 8);
    // Best pairing: 1-7 (2 frames), 2-8 (4): IDTP 6 over (8 + 7) / 2.
    expect(s.idf1).toBeCloseTo((2 * 6) / 15);
  });

  it('counts a box on no insect as a false positive', () => {
    const hyp = seq([
      [7, 8],
      [7, 8],
      [7, 8],
      [7, 8],
    ]);
    hyp[0]!.objects.push({ id: 5, box: box(500) });
    expect(scoreTracking(gt, hyp).falsePositives).toBe(1);
  });

  it('reads tracks as frame objects', () => {
    const objects = trackObjects([
      {
        id: 3,
        cls: 'bee',
        firstFrame: 0,
        lastFrame: 1,
        hits: 2,
        boxes: [
          { frame: 0, box: box(0) },
          { frame: 1, box: box(1) },
        ],
      },
    ]);
    expect(objects.map((f) => f.frame)).toEqual([0, 1]);
  });
});

describe('maxWeightMatching', () => {
  it('finds the best one-to-one pairing, not the greedy one', () => {
    // Greedy takes 5 then 1 (6); the best is 4 + 4 (8).
    expect(
      maxWeightMatching([
        [5, 4],
        [4, 1],
      ]),
    ).toBe(8);
  });

  it('handles rectangular and empty matrices', () => {
    expect(maxWeightMatching([[1, 2, 3]])).toBe(3);
    expect(maxWeightMatching([[1], [2], [0]])).toBe(2);
    expect(maxWeightMatching([])).toBe(0);
  });
});

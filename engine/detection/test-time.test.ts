import { describe, expect, it } from 'vitest';
import type { RawFrame } from '../types.ts';
import type { Candidates } from './adapters/index.ts';
import { fuseViews, takeChannels, unviewCandidates, viewFrame, VIEWS } from './test-time.ts';

/** A 3x2 frame whose pixel (x, y) holds R = 10x + y. */
const frame: RawFrame = {
  index: 0,
  timeS: 0,
  width: 3,
  height: 2,
  data: Uint8Array.from({ length: 18 }, (_, i) => {
    const p = Math.floor(i / 3);
    return i % 3 === 0 ? 10 * (p % 3) + Math.floor(p / 3) : 7;
  }),
};
const red = (f: RawFrame) => Array.from({ length: 6 }, (_, p) => f.data[p * 3]!);

function candidates(
  rows: {
    box: [number, number, number, number];
    score: number;
    channel?: number;
    group?: number[];
  }[],
): Candidates {
  return {
    count: rows.length,
    boxes: Float32Array.from(rows.flatMap((r) => r.box)),
    scores: Float32Array.from(rows.map((r) => r.score)),
    channels: Uint16Array.from(rows.map((r) => r.channel ?? 0)),
    groupScores: Float32Array.from(rows.flatMap((r) => r.group ?? [0, 0])),
  };
}
const boxes = (c: Candidates) =>
  Array.from({ length: c.count }, (_, i) => [...c.boxes.subarray(i * 4, i * 4 + 4)]);
const all = () => 0.3;

describe('viewFrame', () => {
  it('mirrors pixels and leaves the identity view untouched', () => {
    expect(viewFrame(frame, 'identity')).toBe(frame);
    expect(red(frame)).toEqual([0, 10, 20, 1, 11, 21]);
    expect(red(viewFrame(frame, 'flip_h'))).toEqual([20, 10, 0, 21, 11, 1]);
    expect(red(viewFrame(frame, 'flip_v'))).toEqual([1, 11, 21, 0, 10, 20]);
    expect(red(viewFrame(frame, 'rotate_180'))).toEqual([21, 11, 1, 20, 10, 0]);
    expect(viewFrame(frame, 'flip_h').data[1]).toBe(7);
    expect(red(frame)).toEqual([0, 10, 20, 1, 11, 21]);
  });

  it('turns pixels, swapping the sides', () => {
    for (const [view, expected] of [
      ['transpose', [0, 1, 10, 11, 20, 21]],
      ['rotate_90', [1, 0, 11, 10, 21, 20]],
      ['rotate_270', [20, 21, 10, 11, 0, 1]],
      ['transverse', [21, 20, 11, 10, 1, 0]],
    ] as const) {
      const seen = viewFrame(frame, view);
      expect([seen.width, seen.height]).toEqual([2, 3]);
      expect(red(seen)).toEqual(expected);
      expect(seen.data[4]).toBe(7);
    }
  });
});

describe('unviewCandidates', () => {
  it('maps a box found in a mirrored view back onto the frame', () => {
    for (const [view, expected] of [
      ['identity', [10, 20, 30, 60]],
      ['flip_h', [70, 20, 90, 60]],
      ['flip_v', [10, 40, 30, 80]],
      ['rotate_180', [70, 40, 90, 80]],
    ] as const) {
      const c = candidates([{ box: [10, 20, 30, 60], score: 1 }]);
      unviewCandidates(c, view, 100, 100);
      expect(boxes(c)).toEqual([expected]);
    }
  });

  it.each(VIEWS)(
    '%s: maps the box around a pixel in the view back around it in the frame',
    (view) => {
      const wide: RawFrame = { index: 0, timeS: 0, width: 7, height: 4, data: new Uint8Array(84) };
      wide.data[(1 * 7 + 5) * 3] = 255;
      const seen = viewFrame(wide, view);
      const at = seen.data.indexOf(255) / 3;
      const [x, y] = [at % seen.width, Math.floor(at / seen.width)];
      const c = candidates([{ box: [x, y, x + 1, y + 1], score: 1 }]);
      unviewCandidates(c, view, 7, 4);
      expect(boxes(c)).toEqual([[5, 1, 6, 2]]);
    },
  );
});

describe('takeChannels', () => {
  it("replaces the named channels' candidates with the other's, keeping the rest and their groups", () => {
    const own = candidates([
      { box: [0, 0, 10, 10], score: 0.9, channel: 0, group: [0.6, 0.3] },
      { box: [5, 5, 20, 20], score: 0.4, channel: 3, group: [0, 0] },
      { box: [1, 1, 9, 9], score: 0.2, channel: 0, group: [0.1, 0.1] },
    ]);
    const other = candidates([
      { box: [50, 50, 70, 70], score: 0.8, channel: 3, group: [0.5, 0.5] },
      { box: [0, 0, 10, 10], score: 0.7, channel: 0, group: [0.4, 0.3] },
      { box: [6, 6, 21, 21], score: 0.3, channel: 3, group: [0.2, 0.1] },
    ]);
    const out = takeChannels(own, other, new Set([3]), 2);
    expect(out.count).toBe(4);
    expect(Array.from(out.channels)).toEqual([0, 0, 3, 3]);
    expect(Array.from(out.scores)).toEqual([0.9, 0.2, 0.8, 0.3].map(Math.fround));
    expect(Array.from(out.boxes.subarray(8))).toEqual([50, 50, 70, 70, 6, 6, 21, 21]);
    // A taken channel is never a merged one: its group scores are zero, as the adapter writes.
    expect(Array.from(out.groupScores!)).toEqual([0.6, 0.3, 0.1, 0.1, 0, 0, 0, 0].map(Math.fround));
    expect(takeChannels(own, candidates([]), new Set([0, 3]), 2).count).toBe(0);
  });
});

describe('fuseViews', () => {
  it('averages boxes by score and scores over every view', () => {
    const a = candidates([{ box: [0, 0, 10, 10], score: 0.6, group: [0.4, 0.2] }]);
    const b = candidates([{ box: [2, 0, 12, 10], score: 0.2, group: [0.1, 0.1] }]);
    const fused = fuseViews([a, b], { matchIou: 0.5, thresholdOf: () => 0.1, groupSize: 2 });
    // a anchors (0.6 >= 0.1) and b anchors (0.2 >= 0.1): the insect comes out twice, the same.
    expect(fused.count).toBe(2);
    for (let i = 0; i < 2; i++) {
      expect(fused.scores[i]).toBeCloseTo(0.4, 6);
      expect(boxes(fused)[i]![0]).toBeCloseTo(0.5, 5);
      expect(boxes(fused)[i]![2]).toBeCloseTo(10.5, 5);
      expect(fused.groupScores![i * 2]).toBeCloseTo(0.25, 6);
      expect(fused.groupScores![i * 2 + 1]).toBeCloseTo(0.15, 6);
    }
  });

  it('halves a peak the other view does not see, and drops it when that falls below threshold', () => {
    const a = candidates([
      { box: [0, 0, 10, 10], score: 0.8 },
      { box: [50, 50, 60, 60], score: 0.5 },
    ]);
    const b = candidates([{ box: [0, 0, 10, 10], score: 0.8 }]);
    const fused = fuseViews([a, b], { matchIou: 0.5, thresholdOf: all, groupSize: 0 });
    expect(boxes(fused)).toEqual([
      [0, 0, 10, 10],
      [0, 0, 10, 10],
    ]);
    const low = fuseViews([a, b], { matchIou: 0.5, thresholdOf: () => 0.2, groupSize: 0 });
    expect(low.count).toBe(3);
    expect(low.scores[1]).toBeCloseTo(0.25, 6);
  });

  it('matches only the same channel and only boxes overlapping enough', () => {
    const a = candidates([{ box: [0, 0, 10, 10], score: 0.8, channel: 0 }]);
    const other = candidates([{ box: [0, 0, 10, 10], score: 0.8, channel: 3 }]);
    const apart = candidates([{ box: [6, 0, 16, 10], score: 0.8, channel: 0 }]);
    const opts = { matchIou: 0.5, thresholdOf: all, groupSize: 0 };
    expect(fuseViews([a, other], opts).scores[0]).toBeCloseTo(0.4, 6);
    expect(fuseViews([a, apart], opts).scores[0]).toBeCloseTo(0.4, 6);
    expect(fuseViews([a], opts).scores[0]).toBeCloseTo(0.8, 6);
  });

  it("uses each channel's own threshold for the candidates worth fusing", () => {
    const a = candidates([
      { box: [0, 0, 10, 10], score: 0.5, channel: 0 },
      { box: [40, 0, 50, 10], score: 0.5, channel: 1 },
    ]);
    const fused = fuseViews([a, a], {
      matchIou: 0.5,
      thresholdOf: (c) => (c === 0 ? 0.4 : 0.6),
      groupSize: 0,
    });
    expect(Array.from(fused.channels)).toEqual([0, 0]);
  });
});

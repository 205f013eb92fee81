import { describe, expect, it } from 'vitest';
import type { Track } from '../types.ts';
import { proposeEntrance } from './propose.ts';
import { entranceSide } from './entrance.ts';

function track(id: number, frames: [number, number, number][]): Track {
  const boxes = frames.map(([frame, x, y]) => ({
    frame,
    box: { x: x * 640 - 10, y: y * 480 - 10, width: 20, height: 20 },
  }));
  return {
    id,
    cls: 'bee',
    firstFrame: frames[0]![0],
    lastFrame: frames.at(-1)![0],
    hits: boxes.length,
    boxes,
  };
}

describe('proposeEntrance', () => {
  it('boxes the place where most tracks start or end', () => {
    const tracks = [
      // Four bees vanish near (0.7, 0.1), two come out of there, mid-clip.
      ...[0, 1, 2, 3].map((i) =>
        track(i + 1, [
          [5 + i, 0.5, 0.8],
          [10 + i, 0.7 + i * 0.01, 0.1],
        ]),
      ),
      track(5, [
        [8, 0.69, 0.11],
        [14, 0.3, 0.7],
      ]),
      track(6, [
        [12, 0.72, 0.09],
        [18, 0.4, 0.9],
      ]),
      // Cut by the clip's first and last frames: left out, however many.
      ...[7, 8, 9, 10].map((id) =>
        track(id, [
          [0, 0.1, 0.9],
          [30, 0.1, 0.85],
        ]),
      ),
    ];
    const proposal = proposeEntrance(tracks, { width: 640, height: 480, lastFrame: 30 });
    expect(proposal).not.toBeNull();
    expect(proposal!.trackEnds).toBe(6);
    expect(proposal!.of).toBe(12);
    expect(entranceSide(proposal!.entrance, [0.7, 0.1], 0.03)).toBe('hive');
    expect(entranceSide(proposal!.entrance, [0.5, 0.8], 0.03)).toBe('field');
  });

  it('proposes nothing from too few track ends', () => {
    expect(
      proposeEntrance(
        [
          track(1, [
            [3, 0.5, 0.5],
            [9, 0.6, 0.6],
          ]),
        ],
        { width: 640, height: 480, lastFrame: 30 },
      ),
    ).toBeNull();
  });
});

import { describe, expect, it } from 'vitest';
import {
  DEFAULT_LINE,
  describeEntrance,
  lineAcross,
  movePoint,
  nudgePoint,
  sideMarkers,
  swapSides,
} from './entrance.ts';

describe('entrance editing', () => {
  it('moves and nudges points inside the frame, to three decimals', () => {
    const moved = movePoint(DEFAULT_LINE, 1, [1.2, 0.12345]);
    expect(moved.points).toEqual([
      [0.2, 0.5],
      [1, 0.123],
    ]);
    expect(nudgePoint(moved, 0, -0.5, 0.01).points[0]).toEqual([0, 0.51]);
    expect(nudgePoint(moved, 5, 0.1, 0)).toBe(moved);
  });

  it('puts the hive on the left walking from the first point to the second (y down)', () => {
    // Left to right: the hive is above the line (smaller y), the field below.
    const marks = sideMarkers(DEFAULT_LINE, 4 / 3)!;
    expect(marks.hive[1]).toBeLessThan(0.5);
    expect(marks.field[1]).toBeGreaterThan(0.5);
    expect(marks.hive[0]).toBeCloseTo(0.5);
    const swapped = sideMarkers(swapSides(DEFAULT_LINE), 4 / 3)!;
    expect(swapped.hive[1]).toBeGreaterThan(0.5);
    // A vertical line drawn downwards has the hive on the right of the picture.
    const down = sideMarkers(
      {
        kind: 'line',
        points: [
          [0.5, 0.2],
          [0.5, 0.8],
        ],
      },
      16 / 9,
    )!;
    expect(down.hive[0]).toBeGreaterThan(0.5);
  });

  it('turns a proposed box into a line across its middle, hive above', () => {
    const box = {
      kind: 'polygon' as const,
      points: [
        [0.4, 0.1],
        [0.6, 0.1],
        [0.6, 0.3],
        [0.4, 0.3],
      ] as Array<[number, number]>,
    };
    expect(lineAcross(box)).toEqual({
      kind: 'line',
      points: [
        [0.4, 0.2],
        [0.6, 0.2],
      ],
    });
    expect(describeEntrance(lineAcross(box))).toBe('Line from (40%, 20%) to (60%, 20%)');
    expect(describeEntrance(box)).toBe('Area of 4 corners');
    expect(describeEntrance(null)).toBe('No entrance set');
  });
});

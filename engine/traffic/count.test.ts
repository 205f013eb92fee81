import { describe, expect, it } from 'vitest';
import type { Entrance, ProductClass, Track } from '../types.ts';
import { countTraffic } from './count.ts';
import { parseEntranceLine, parseEntrancePolygon } from './entrance.ts';

const VIDEO = { width: 1000, height: 1000, sampleFps: 5, durationS: 30 };
// Hive above: the line is drawn left to right.
const LINE = parseEntranceLine('0,0.5,1,0.5');
const SLOT = parseEntrancePolygon([
  [0.4, 0],
  [0.6, 0],
  [0.6, 0.1],
  [0.4, 0.1],
]);

let nextId = 1;
/** A track through frame-relative centres, one hit per sampled frame from `startFrame`. */
function track(
  centres: [number, number][],
  startFrame = 0,
  cls: ProductClass = 'bee',
  size = 40,
): Track {
  const boxes = centres.map(([x, y], i) => ({
    frame: startFrame + i,
    box: { x: x * 1000 - size / 2, y: y * 1000 - size / 2, width: size, height: size },
  }));
  return {
    id: nextId++,
    cls,
    firstFrame: startFrame,
    lastFrame: startFrame + centres.length - 1,
    hits: boxes.length,
    boxes,
  };
}

/** Centres walking straight at x from y0 to y1 in `n` hits. */
function walk(x: number, y0: number, y1: number, n: number): [number, number][] {
  return Array.from({ length: n }, (_, i) => [x, y0 + ((y1 - y0) * i) / (n - 1)]);
}

const count = (tracks: Track[], entrance: Entrance = LINE) => countTraffic(tracks, entrance, VIDEO);

describe('countTraffic on a line', () => {
  it('counts a bee walking in and one walking out, with net flow and rates', () => {
    const traffic = count([
      track(walk(0.3, 0.9, 0.1, 9)),
      track(walk(0.7, 0.1, 0.9, 9), 3),
      track(walk(0.5, 0.8, 0.2, 5), 20),
    ]);
    expect([traffic.beesIn, traffic.beesOut, traffic.netFlow, traffic.loops]).toEqual([2, 1, 1, 0]);
    expect(traffic.inPerMinute).toBe(4);
    expect(traffic.outPerMinute).toBe(2);
    expect(traffic.events.map((e) => e.kind)).toEqual(['in', 'out', 'in']);
  });

  it('the line drawn the other way round puts the hive below', () => {
    const traffic = count([track(walk(0.3, 0.9, 0.1, 9), 1)], parseEntranceLine('1,0.5,0,0.5'));
    expect([traffic.beesIn, traffic.beesOut]).toEqual([0, 1]);
  });

  it('a hoverer crossing back and forth counts once, by where it ends', () => {
    const back = [0.7, 0.3, 0.7, 0.3, 0.7].map((y): [number, number] => [0.5, y]);
    const endsIn = [0.7, 0.3, 0.7, 0.3].map((y): [number, number] => [0.2, y]);
    const traffic = count([track(back), track(endsIn)]);
    expect([traffic.beesIn, traffic.beesOut, traffic.loops]).toEqual([1, 0, 0]);
  });

  it('jitter inside the margin band never counts', () => {
    const jitter = [0.8, 0.6, 0.51, 0.49, 0.52, 0.48, 0.51, 0.49].map((y): [number, number] => [
      0.5,
      y,
    ]);
    expect(count([track(jitter)]).beesIn).toBe(0);
    // One step clear of the band on the hive side is a crossing.
    expect(count([track([...jitter, [0.5, 0.45]])]).beesIn).toBe(1);
  });

  it('joins a bee lost for over a second at the entrance into one passage', () => {
    const before = track(walk(0.4, 0.9, 0.52, 6));
    // Six sampled frames unseen (1.2 s: longer than the tracker bridges), found just past the line.
    const after = track(walk(0.41, 0.49, 0.1, 6), 5 + 7);
    const traffic = count([before, after]);
    expect([traffic.beesIn, traffic.beesOut]).toEqual([1, 0]);
    expect(traffic.events[0]!.trackIds).toEqual([before.id, after.id]);
    // Too long a gap (3 s) is two tracks, neither of which crossed.
    expect(count([before, track(walk(0.41, 0.49, 0.1, 6), 5 + 15)]).beesIn).toBe(0);
  });

  it('does not join a bee that went in with one coming out at the same spot', () => {
    const goesIn = track(walk(0.5, 0.9, 0.3, 7));
    const comesOut = track(walk(0.5, 0.31, 0.9, 7), 8);
    const traffic = count([goesIn, comesOut]);
    expect([traffic.beesIn, traffic.beesOut]).toEqual([1, 1]);
  });

  it('an orientation flight out and back within a few seconds is a loop; a long trip is out and in', () => {
    const loop = track([...walk(0.5, 0.3, 0.9, 6), ...walk(0.5, 0.85, 0.3, 6)], 1);
    const short = count([loop]);
    expect([short.beesIn, short.beesOut, short.loops]).toEqual([0, 0, 1]);
    const away = Array.from({ length: 40 }, (): [number, number] => [0.6, 0.9]);
    const trip = track([...walk(0.5, 0.3, 0.9, 6), ...away, ...walk(0.5, 0.85, 0.3, 6)], 1);
    const long = count([trip]);
    expect([long.beesIn, long.beesOut, long.loops]).toEqual([1, 1, 0]);
  });

  it('a bee at the entrance from the first frame, or still there at the last, is not a passage', () => {
    // VIDEO: 30 s at 5 fps, sampled frames 0-149.
    const fromStart = count([track(walk(0.5, 0.3, 0.9, 6), 0)]);
    expect([fromStart.beesIn, fromStart.beesOut]).toEqual([0, 0]);
    const toEnd = count([track(walk(0.5, 0.9, 0.3, 6), 144)]);
    expect([toEnd.beesIn, toEnd.beesOut]).toEqual([0, 0]);
    // Outside at either edge is still seen coming or going.
    const walksIn = count([track(walk(0.5, 0.9, 0.3, 6), 0)]);
    const walksOut = count([track(walk(0.5, 0.3, 0.9, 6), 144)]);
    expect([walksIn.beesIn, walksOut.beesOut]).toEqual([1, 1]);
    // Out from the slit at the start, back and gone: only the return is seen.
    const back = count([track([...walk(0.5, 0.3, 0.9, 6), ...walk(0.5, 0.85, 0.3, 6)], 0)]);
    expect([back.beesIn, back.beesOut, back.loops]).toEqual([1, 0, 0]);
  });

  it('a bee seen on two frames only is not a passage; one joined across a wide jump is not one bee', () => {
    expect(count([track(walk(0.5, 0.9, 0.3, 2), 5)]).beesIn).toBe(0);
    expect(count([track(walk(0.5, 0.9, 0.3, 3), 5)]).beesIn).toBe(1);
    // Two hits either side of a missed frame span the 0.4 s, but show the bee twice all the same.
    const twice = track(walk(0.5, 0.9, 0.3, 2), 5);
    twice.boxes[1]!.frame = 7;
    expect(count([twice]).beesIn).toBe(0);
    // A bee stopping short of the line and one leaving it 60 px away: for 20 px bees that is 3
    // box sizes, two bees, neither of which crossed; for 40 px bees, one bee lost for a moment.
    const halves = (size: number) =>
      count([
        track(walk(0.5, 0.9, 0.55, 4), 5, 'bee', size),
        track(walk(0.5, 0.49, 0.1, 4), 10, 'bee', size),
      ]).beesIn;
    expect([halves(20), halves(40)]).toEqual([0, 1]);
  });

  it('counts per class; wasps are not bees', () => {
    const traffic = count([
      track(walk(0.2, 0.9, 0.1, 5), 0, 'pollen'),
      track(walk(0.8, 0.9, 0.1, 5), 0, 'wasp'),
    ]);
    expect(traffic.beesIn).toBe(1);
    expect(traffic.byClass).toEqual({
      pollen: { in: 1, out: 0, loops: 0 },
      wasp: { in: 1, out: 0, loops: 0 },
    });
  });

  it('ignores a bee walking past beside the line', () => {
    const short = parseEntranceLine('0.4,0.5,0.6,0.5');
    expect(count([track(walk(0.9, 0.9, 0.1, 9))], short).beesIn).toBe(0);
  });
});

describe('countTraffic on a polygon', () => {
  it('a track ending inside after coming from outside is in; the reverse is out', () => {
    const traffic = count(
      [track(walk(0.5, 0.7, 0.05, 8)), track(walk(0.45, 0.05, 0.7, 8), 10)],
      SLOT,
    );
    expect([traffic.beesIn, traffic.beesOut]).toEqual([1, 1]);
  });

  it('a bee walking past within the band, or only on the entrance, is not traffic', () => {
    const past = Array.from({ length: 8 }, (_, i): [number, number] => [0.2 + i * 0.08, 0.12]);
    const onEntrance = Array.from({ length: 8 }, (_, i): [number, number] => [
      0.42 + i * 0.02,
      0.05,
    ]);
    const traffic = count([track(past), track(onEntrance)], SLOT);
    expect([traffic.beesIn, traffic.beesOut, traffic.loops]).toEqual([0, 0, 0]);
  });
});

describe('parsing an entrance', () => {
  it('refuses lines and polygons that are not frame-relative', () => {
    expect(() => parseEntranceLine('0,0.5,1')).toThrow(RangeError);
    expect(() => parseEntranceLine('0,0.5,1,1.5')).toThrow(/0 to 1/);
    expect(() => parseEntranceLine('0.5,0.5,0.5,0.5')).toThrow(/two different points/);
    expect(() =>
      parseEntrancePolygon([
        [0, 0],
        [1, 1],
      ]),
    ).toThrow(RangeError);
    expect(() =>
      parseEntrancePolygon([
        [0, 0],
        [0.5, 0.5],
        [1, 1],
      ]),
    ).toThrow(/flat/);
    expect(() => parseEntrancePolygon({ points: [] })).toThrow(RangeError);
  });

  it('refuses polygons that cross or touch themselves, fold back or enclose no area', () => {
    const refused: Array<[number[][], RegExp]> = [
      [[[0, 0], [1, 1], [1, 0.2], [0, 1]], /crosses itself: the edge from \(0, 0\) to \(1, 1\) meets the edge from \(1, 0.2\) to \(0, 1\)/],
      [[[0, 0], [1, 1], [1, 0], [0, 1]], /crosses itself/], // a symmetric bow tie: signed area 0
      // A figure eight touching itself at (0.5, 0.5).
      [[[0, 0], [0.5, 0.5], [1, 0], [1, 1], [0.5, 0.5], [0, 1]], /crosses itself/],
      [[[0, 0], [1, 0], [0.5, 0], [0.5, 1]], /turns back on its own edge at \(1, 0\)/],
      [[[0.2, 0.2], [0.2, 0.2], [0.8, 0.2], [0.5, 0.9]], /corner \(0.2, 0.2\) twice in a row/],
      [[[0, 0], [0.5, 0.5], [1, 1], [0.25, 0.25]], /flat: its points lie on one line/],
      [[[0.5, 0.5], [0.5005, 0.5], [0.5, 0.5005]], /flat: it encloses almost no area/],
      [Array.from({ length: 33 }, (_, i) => [0.5 + 0.4 * Math.cos(i / 5.3), 0.5 + 0.4 * Math.sin(i / 5.3)]), /at most 32 points/],
    ]; // prettier-ignore
    for (const [points, message] of refused)
      expect(() => parseEntrancePolygon(points), JSON.stringify(points)).toThrow(message);
  });

  it('accepts simple polygons, concave ones and straight corners included', () => {
    const accepted = [
      [[0.1, 0.1], [0.9, 0.1], [0.9, 0.9], [0.1, 0.9]],
      [[0, 0], [1, 0], [1, 1], [0.5, 0.2], [0, 1]], // concave (an arrow head)
      [[0, 0], [0.5, 0], [1, 0], [1, 1]], // a corner on a straight edge
      [[0.08, 0.4148], [0.89, 0.5698], [0.89, 0.7176], [0.08, 0.563]],
    ]; // prettier-ignore
    for (const points of accepted) expect(parseEntrancePolygon(points).points).toEqual(points);
  });
});

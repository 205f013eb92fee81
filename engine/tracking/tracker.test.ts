import { describe, expect, it } from 'vitest';
import { makeDetection } from '../detection/detection.ts';
import { seededRandom } from '../random.ts';
import type { Detection, ProductClass } from '../types.ts';
import { Tracker, trackerOptionsFor } from './tracker.ts';
import type { TrackerOptions } from './tracker.ts';

const SIZE = 40;
const bee = (
  cx: number,
  cy: number,
  cls: ProductClass = 'bee',
  score = 0.8,
  size = SIZE,
): Detection =>
  makeDetection(cls, score, { x: cx - size / 2, y: cy - size / 2, width: size, height: size });

/** Runs frames 0..n-1 (or the given indices) through a tracker. */
function track(frames: Detection[][], options: TrackerOptions = {}, indices?: number[]) {
  const tracker = new Tracker(options);
  frames.forEach((dets, i) => tracker.update(indices?.[i] ?? i, dets));
  return tracker.finish();
}

describe('Tracker', () => {
  it('follows N insects moving linearly, fast (over a body length per frame)', () => {
    const frames = Array.from({ length: 12 }, (_, f) => [
      bee(100 + 60 * f, 100), // 1.5 body lengths per frame, rightwards
      bee(900 - 50 * f, 300), // leftwards
      bee(400, 50 + 45 * f), // downwards
    ]);
    const tracks = track(frames);
    expect(tracks).toHaveLength(3);
    for (const t of tracks) {
      expect(t.hits).toBe(12);
      expect(t.firstFrame).toBe(0);
      expect(t.lastFrame).toBe(11);
      expect(t.boxes).toHaveLength(12);
    }
    expect(tracks.map((t) => t.id)).toEqual([1, 2, 3]);
  });

  it('keeps identities when two insects cross paths', () => {
    // A goes right, B goes left, 10 px apart vertically, crossing at frame 5 with heavy overlap.
    const frames = Array.from({ length: 11 }, (_, f) => [
      bee(100 + 30 * f, 200, 'bee'),
      bee(400 - 30 * f, 210, 'drone'),
    ]);
    const tracks = track(frames);
    expect(tracks).toHaveLength(2);
    for (const t of tracks) {
      expect(t.hits).toBe(11);
      const xs = t.boxes.map((b) => b.box.x);
      const direction = Math.sign(xs[1]! - xs[0]!);
      // Monotonic motion: never swapped onto the other insect.
      for (let i = 1; i < xs.length; i++) expect(Math.sign(xs[i]! - xs[i - 1]!)).toBe(direction);
      expect(t.cls).toBe(direction > 0 ? 'bee' : 'drone');
    }
  });

  it('keeps a track through a short disappearance within maxAge (and predicts its motion)', () => {
    const frames = Array.from({ length: 10 }, (_, f) =>
      f >= 4 && f <= 6 ? [] : [bee(100 + 30 * f, 100)],
    );
    const tracks = track(frames, { maxAge: 5 });
    expect(tracks).toHaveLength(1);
    expect(tracks[0]!.hits).toBe(7);
    expect(tracks[0]!.lastFrame).toBe(9);
  });

  it('starts a new track when the gap is longer than maxAge', () => {
    const frames = Array.from({ length: 12 }, (_, f) => (f >= 3 && f <= 8 ? [] : [bee(200, 100)]));
    expect(track(frames, { maxAge: 2 })).toHaveLength(2);
  });

  it('gives a track its majority class despite flicker; ties go to the higher summed score', () => {
    const classes: ProductClass[] = ['pollen', 'bee', 'pollen', 'pollen', 'drone', 'pollen', 'bee'];
    const tracks = track(classes.map((cls, f) => [bee(100 + 10 * f, 100, cls)]));
    expect(tracks).toHaveLength(1);
    expect(tracks[0]!.cls).toBe('pollen');

    const tie = track([
      [bee(100, 100, 'bee', 0.5)],
      [bee(110, 100, 'pollen', 0.9)],
      [bee(120, 100, 'bee', 0.5)],
      [bee(130, 100, 'pollen', 0.9)],
    ]);
    expect(tie.map((t) => t.cls)).toEqual(['pollen']);
  });

  it('counts insects that enter and leave at different times', () => {
    const frames: Detection[][] = Array.from({ length: 20 }, (_, f) => {
      const dets: Detection[] = [];
      if (f < 8) dets.push(bee(50 + 20 * f, 100)); // present from the start, leaves at 8
      if (f >= 5 && f < 15) dets.push(bee(600, 50 + 25 * (f - 5), 'hornet')); // enters, leaves
      if (f >= 17) dets.push(bee(300, 400)); // arrives near the end
      return dets;
    });
    const tracks = track(frames);
    expect(tracks.map((t) => [t.cls, t.firstFrame, t.lastFrame])).toEqual([
      ['bee', 0, 7],
      ['hornet', 5, 14],
      ['bee', 17, 19],
    ]);
  });

  it('does not count single-frame false positives or low-score blips', () => {
    const frames: Detection[][] = Array.from({ length: 10 }, (_, f) => {
      const dets = [bee(100 + 10 * f, 100)];
      if (f === 3) dets.push(bee(700, 500)); // one-frame blip
      if (f === 6) dets.push(bee(300, 300, 'hornet', 0.95)); // another
      if (f >= 2 && f <= 5) dets.push(bee(450, 100 + 100 * (f - 2), 'bee', 0.9, 20)); // never twice near
      dets.push(bee(800, 200, 'bee', 0.3)); // persistent low score: cannot start a track
      return dets;
    });
    const tracks = track(frames, { highScore: 0.5 });
    expect(tracks.map((t) => [t.firstFrame, t.hits])).toEqual([[0, 10]]);
  });

  it('uses low-score detections to continue existing tracks (second stage)', () => {
    const scores = [0.9, 0.8, 0.3, 0.3, 0.3, 0.9];
    const tracks = track(
      scores.map((s, f) => [bee(100 + 20 * f, 100, 'bee', s)]),
      { highScore: 0.5 },
    );
    expect(tracks).toHaveLength(1);
    expect(tracks[0]!.hits).toBe(6);
  });

  it('counts a track seen once when the video has fewer frames than minHits', () => {
    expect(track([[bee(10, 10), bee(200, 200)]])).toHaveLength(2);
    expect(track([[bee(10, 10)], []], { minHits: 3 })).toHaveLength(1);
    // With enough frames a single hit is a blip.
    expect(track([[bee(10, 10)], [], []])).toHaveLength(0);
  });

  it('handles skipped frame indices with motion scaled by the gap', () => {
    const indices = [0, 1, 2, 4, 5, 6];
    const frames = indices.map((i) => [bee(100 + 50 * i, 100), bee(100 + 50 * i, 300)]);
    const tracks = track(frames, {}, indices);
    expect(tracks).toHaveLength(2);
    expect(tracks.every((t) => t.hits === 6)).toBe(true);
  });

  it('lets a track go unseen for the same time at any sample rate', () => {
    expect(trackerOptionsFor(5)).toEqual({ maxAge: 5, missedReach: 0.5 });
    expect(trackerOptionsFor(15)).toMatchObject({ maxAge: 15 });
    expect(trackerOptionsFor(15).missedReach).toBeCloseTo(0.5 / 3);
    expect(trackerOptionsFor(0.5)).toEqual({ maxAge: 1, missedReach: 5 });
    expect(() => trackerOptionsFor(0)).toThrow(RangeError);
    // A bee hidden for 0.8 s, sampled at 15 fps: 12 frames without it, still one bee.
    const fps = 15;
    const frames = Array.from({ length: 40 }, (_, f) =>
      f >= 10 && f < 22 ? [] : [bee(100 + 4 * f, 100)],
    );
    expect(track(frames, trackerOptionsFor(fps))).toHaveLength(1);
    // The old fixed 5 frames split it in two.
    expect(track(frames, { maxAge: 5 })).toHaveLength(2);
  });

  it('reaches as far after a second unseen at 15 fps as at 5 fps, so a lost track takes no other bee', () => {
    // A bee walks right and is lost at frame 10; another bee, 5 sizes from where the first was
    // lost, walks in 0.6 s later (frame 19 at 15 fps). At 5 fps that is 3 frames.
    const run = (fps: number, options: TrackerOptions) => {
      const lost = Math.round(0.67 * fps);
      const later = lost + Math.round(0.6 * fps);
      const frames = Array.from({ length: later + 5 }, (_, f) =>
        f < lost
          ? [bee(100 + (40 * f * 5) / fps, 100)]
          : f >= later
            ? [bee(100 + 40 * 3 + 200, 300)]
            : [],
      );
      return track(frames, options);
    };
    expect(run(5, trackerOptionsFor(5))).toHaveLength(2);
    expect(run(15, trackerOptionsFor(15))).toHaveLength(2);
    // Grown per frame, the reach at 15 fps took the newcomer over.
    expect(run(15, { ...trackerOptionsFor(15), missedReach: 0.5 })).toHaveLength(1);
  });

  it('ends a track whose boxes say it left through an exit after exitMaxAge frames', () => {
    // A bee walks down into an entrance (y > 450 here) and is gone; 0.6 s later another comes
    // out at the same spot and walks back up: two bees, one in and one out.
    const frames = [
      ...Array.from({ length: 8 }, (_, f) => [bee(500, 200 + 40 * f)]), // 200 -> 480
      [bee(500, 500)],
      [],
      [],
      [],
      [bee(500, 500)],
      ...Array.from({ length: 8 }, (_, f) => [bee(500, 460 - 40 * f)]),
    ];
    const exit = (boxes: readonly { y: number }[]) => boxes.at(-1)!.y > 450 - SIZE / 2;
    expect(track(frames, { ...trackerOptionsFor(5), exit, exitMaxAge: 1 })).toHaveLength(2);
    expect(track(frames, trackerOptionsFor(5))).toHaveLength(1);
  });

  it('pairs by least total cost when asked, where greedy pairing loses a bee', () => {
    // Two still bees, 80 px apart, both step 40-45 px left. Greedy takes the single cheapest
    // pair (the left track with the right bee's new place), leaving the right track nothing in
    // reach: a third track. Least total cost moves each bee to its own new place.
    const frames = [
      ...Array.from({ length: 3 }, () => [bee(100, 100), bee(180, 100)]),
      [bee(60, 100), bee(135, 100)],
      [bee(60, 100), bee(135, 100)],
    ];
    const options = { followScene: false };
    expect(track(frames, options)).toHaveLength(3);
    const hungarian = track(frames, { ...options, assignment: 'hungarian' });
    expect(hungarian.map((t) => t.boxes.map((b) => b.box.x + SIZE / 2))).toEqual([
      [100, 100, 100, 60, 60],
      [180, 180, 180, 135, 135],
    ]);
  });

  it('counts a honeybee shown on the frames but never scored high once it has stayed a second', () => {
    const display = { score: 0.25, perClass: { pollen: 0.2 } };
    const options = trackerOptionsFor(5, display);
    expect(options).toMatchObject({ maxAge: 5, weakStartHits: 5 });
    expect(trackerOptionsFor(15, display)).toMatchObject({ weakStartHits: 15 });
    expect(trackerOptionsFor(0.5, display)).toMatchObject({ weakStartHits: 2 });
    const still = (f: number) => [
      bee(100 + 2 * f, 100, 'bee', 0.3), // resting, shown (0.3 >= 0.25), never high (< 0.4)
      bee(400, 100, 'pollen', 0.22), // shown at pollen's own threshold
      bee(700, 100, 'bee', 0.2), // under the display threshold: never counted
      bee(700, 400, 'hornet', 0.35), // a weak hornet: only a high score starts one
    ];
    const five = track(
      Array.from({ length: 5 }, (_, f) => still(f)),
      options,
    );
    expect(five.map((t) => [t.cls, t.hits])).toEqual([
      ['bee', 5],
      ['pollen', 5],
    ]);
    // Four frames (0.8 s) are not enough for a weak start.
    expect(
      track(
        Array.from({ length: 4 }, (_, f) => still(f)),
        options,
      ),
    ).toHaveLength(0);
    // A weak track never scored high is a honeybee, whatever its low detections were typed.
    const typed = ['bee', 'hornet', 'hornet', 'hornet', 'bee'] as const;
    const flicker = typed.map((cls) => [bee(100, 100, cls, cls === 'bee' ? 0.3 : 0.35)]);
    expect(track(flicker, options).map((t) => t.cls)).toEqual(['bee']);
    // A weak start that later scores high counts as any track does, after two frames.
    const rising = [0.3, 0.3, 0.9].map((score, f) => [bee(100 + 2 * f, 100, 'bee', score)]);
    expect(track(rising, options).map((t) => t.hits)).toEqual([3]);
    // Without the display thresholds nothing starts below highScore (0.4).
    expect(
      track(
        Array.from({ length: 10 }, (_, f) => still(f)),
        trackerOptionsFor(5),
      ),
    ).toEqual([]);
  });

  it("counts a track that moved only at its class's median track score", () => {
    const display = { score: 0.2 };
    const options = trackerOptionsFor(5, display, { bee: 0.3 });
    // Each walks a body length (40 px) every two frames, ten frames long.
    const walking = (score: (f: number) => number, y: number, cls: ProductClass = 'bee') =>
      Array.from({ length: 10 }, (_, f) => bee(100 + 20 * f, y, cls, score(f)));
    const frames = Array.from({ length: 10 }, (_, f) => [
      walking(() => 0.28, 100)[f]!, // shown on every frame, median under 0.3: not counted
      walking((g) => (g < 6 ? 0.35 : 0.25), 200)[f]!, // median 0.35: counted
      walking((g) => (g === 0 ? 0.9 : 0.26), 300)[f]!, // one high score does not make it count
      walking(() => 0.28, 400, 'drone')[f]!, // a class without a track score: counted as shown
      walking((g) => (g === 0 ? 0.9 : 0.28), 500, 'hornet')[f]!,
      bee(700, 600, 'bee', 0.28), // resting: its frames are the same look, counted as shown
    ]);
    const counted = track(frames, options);
    const byRow = counted.map((t) => [t.cls, t.boxes[0]!.box.y + SIZE / 2] as const);
    expect(byRow.sort((a, b) => a[1] - b[1])).toEqual([
      ['bee', 200],
      ['drone', 400],
      ['hornet', 500],
      ['bee', 600],
    ]);
    // Without track scores every one of them counts.
    expect(track(frames, trackerOptionsFor(5, display))).toHaveLength(6);
    // A short walk, under its own size from where it started, is a still track.
    const shuffle = Array.from({ length: 6 }, (_, f) => [bee(100 + 6 * f, 100, 'bee', 0.25)]);
    expect(track(shuffle, options)).toHaveLength(1);
    expect(track(shuffle.concat([[bee(140, 100, 'bee', 0.25)]]), options)).toHaveLength(0);
  });

  it('follows a crowd while the camera pans over a body length a frame', () => {
    // A board of bees 1.3-2.2 body lengths apart, filmed by a 1920 px window that pans 50 px
    // (1.25 body lengths) a frame, each box jittering a few pixels: every bee on the board is one.
    const random = seededRandom(3);
    const board: { x: number; y: number }[] = [];
    for (let x = 60; x < 2400; x += 52 + random() * 36) {
      for (let y = 60; y < 260; y += 52 + random() * 36) board.push({ x, y: y + random() * 8 });
    }
    const views = Array.from({ length: 30 }, (_, f) =>
      board
        .map((b, i) => ({
          i,
          x: b.x - 50 * f + (random() - 0.5) * 6,
          y: b.y + (random() - 0.5) * 6,
        }))
        .filter((b) => b.x > SIZE / 2 && b.x < 1920 - SIZE / 2),
    );
    const frames = views.map((view) => view.map((b) => bee(b.x, b.y)));
    // Bees in the picture on two frames or more.
    const seen = board.filter(
      (_, i) => views.filter((v) => v.some((b) => b.i === i)).length > 1,
    ).length;
    const tracks = track(frames);
    expect(tracks.length).toBeGreaterThanOrEqual(seen - 2);
    expect(tracks.length).toBeLessThanOrEqual(seen + 2);
    // Each track stays on its own bee: its boxes move by the pan alone.
    for (const t of tracks) {
      for (let i = 1; i < t.boxes.length; i++) {
        const step = t.boxes[i]!.box.x - t.boxes[i - 1]!.box.x;
        expect(Math.abs(step + 50 * (t.boxes[i]!.frame - t.boxes[i - 1]!.frame))).toBeLessThan(10);
      }
    }
    // Predicting each bee by its own motion alone, tracks swap and fragment in the crowd.
    expect(track(frames, { followScene: false }).length).toBeGreaterThan(seen * 1.2);
  });

  it('refuses frame indices that do not increase and bad options', () => {
    const tracker = new Tracker();
    tracker.update(3, []);
    expect(() => tracker.update(3, [])).toThrow(RangeError);
    expect(() => new Tracker({ minHits: 0 })).toThrow(RangeError);
  });

  it('returns nothing for an empty video', () => {
    expect(new Tracker().finish()).toEqual([]);
  });
});

/**
 * A bee resting at the entrance: 10 s at 5 fps (50 sampled frames), its box jittering by a few
 * pixels and its score wandering, missed on two frames. It must stay one track and count once,
 * with the default options and with the shipped card's thresholds (weak starts, track scores).
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeDetection } from '../detection/detection.ts';
import { Detector } from '../detection/detector.ts';
import { seededRandom } from '../random.ts';
import { countTracks } from '../reports/counts.ts';
import { PRODUCT_CLASSES } from '../types.ts';
import type { Detection } from '../types.ts';
import { Tracker, trackerOptionsFor } from './tracker.ts';
import type { TrackerOptions } from './tracker.ts';

const FPS = 5;
const FRAMES = 10 * FPS;
const MISSED = new Set([17, 33]);

/** The resting bee's detections on each sampled frame (none on the missed ones). */
function restingBee(seed: number, scores: [number, number]): Detection[][] {
  const random = seededRandom(seed);
  const jitter = (amplitude: number): number => (random() * 2 - 1) * amplitude;
  return Array.from({ length: FRAMES }, (_, frame) => {
    if (MISSED.has(frame)) return [];
    const size = 64 + jitter(4);
    const score = scores[0] + random() * (scores[1] - scores[0]);
    return [
      makeDetection('bee', score, {
        x: 600 + jitter(3),
        y: 300 + jitter(3),
        width: size,
        height: size * 0.7,
      }),
    ];
  });
}

function run(frames: Detection[][], options: TrackerOptions) {
  const tracker = new Tracker(options);
  frames.forEach((detections, i) => tracker.update(i, detections));
  return tracker.finish();
}

describe('a bee sitting still for 10 s', () => {
  it('is one track counted once with the default options', () => {
    for (const seed of [1, 2, 3]) {
      const tracks = run(restingBee(seed, [0.5, 0.9]), trackerOptionsFor(FPS));
      expect(tracks).toHaveLength(1);
      const [only] = tracks;
      expect(only).toMatchObject({ cls: 'bee', firstFrame: 0, lastFrame: FRAMES - 1 });
      expect(only!.hits).toBe(FRAMES - MISSED.size);
      expect(countTracks(tracks, PRODUCT_CLASSES).bee).toBe(1);
    }
  });

  it("is one track counted once with the shipped card's thresholds, scored high or low", async () => {
    const detector = await Detector.open(path.resolve('models/hivesight-detector.card.json'));
    const options = trackerOptionsFor(
      FPS,
      detector.scoreThresholds(),
      detector.card.thresholds.trackScore,
    );
    const shown = detector.scoreThresholds();
    const floor = shown.perClass?.bee ?? shown.score;
    // Scored high throughout, then only just at the threshold it is shown at (a weak track).
    for (const scores of [
      [0.6, 0.9],
      [floor, Math.min(0.39, floor + 0.05)],
    ] as [number, number][]) {
      const tracks = run(restingBee(7, scores), options);
      expect(tracks, `scores ${scores.join('-')}`).toHaveLength(1);
      expect(countTracks(tracks, PRODUCT_CLASSES).bee).toBe(1);
    }
  });
});

/**
 * A video analysed with an entrance, and an entrance rate asked for, tracks its traffic at that
 * rate (experiment 016; off in the product):
 * the shipped detector and real ffmpeg on a clip of synthetic bees walking to and from one hive
 * slot (two go in, one comes out; the clip of tests/e2e/cli-traffic.test.ts).
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { writeEntranceVideo } from '../fixtures/index.ts';
import { analyseFile } from './analyse.ts';
import { Detector } from './detection/detector.ts';
import { limits, tempDir, tools } from './media/test-support.ts';
import { ENTRANCE_FPS } from './traffic/entrance-rate.ts';
import type { Entrance } from './types.ts';

const CARD = path.resolve('models/hivesight-detector.card.json');
const SLOT: [number, number] = [0.5, 0.12];
const POLYGON: Entrance = {
  kind: 'polygon',
  points: [
    [0.35, 0],
    [0.65, 0],
    [0.65, 0.25],
    [0.35, 0.25],
  ],
};

let dir: string;
let cleanup: () => Promise<void>;
let file: string;
beforeAll(async () => {
  ({ dir, cleanup } = await tempDir('entrance-rate'));
  ({ file } = await writeEntranceVideo(path.join(dir, 'entrance.mp4'), {
    seconds: 9,
    walks: [
      { from: [0.2, 0.9], to: SLOT, startS: 0.2, endS: 2.4 },
      { from: SLOT, to: [0.8, 0.9], startS: 4.0, endS: 6.2 },
      { from: [0.85, 0.85], to: SLOT, startS: 6.0, endS: 8.4 },
    ],
  }));
});
afterAll(async () => cleanup());

describe('analyseFile with an entrance', () => {
  it('counts traffic at the entrance rate asked for on crops between the 5 fps frames, which stay as they were', async () => {
    const detector = await Detector.open(CARD);
    const deps = { detector, tools, limits: limits() };
    // Not asked for, the entrance is counted on the 5 fps frames.
    const plain = await analyseFile(file, deps, { entrance: POLYGON });
    expect(plain.traffic).toMatchObject({ sampleFps: 5, beesIn: 2, beesOut: 1 });

    const detect = vi.spyOn(detector, 'detect');
    const result = await analyseFile(file, deps, {
      entrance: POLYGON,
      entranceFps: ENTRANCE_FPS,
    });
    const sizes = detect.mock.calls.map(([frame]) => `${frame.width}x${frame.height}`);
    const whole = sizes.filter((s) => s === sizes[0]);
    expect(whole).toHaveLength(45);
    // Between them, the crop: the slot's box padded by four bee lengths (48 px bees here),
    // clamped to the top of the frame, so narrower and shorter than the whole frame.
    const crops = sizes.filter((s) => s !== sizes[0]);
    expect(crops.length).toBeGreaterThanOrEqual(44);
    const [w, h] = sizes[0]!.split('x').map(Number);
    for (const crop of new Set(crops)) {
      const [cw, ch] = crop.split('x').map(Number);
      expect(cw! * ch!).toBeLessThan(0.8 * w! * h!);
    }

    expect(result.sampleFps).toBe(5);
    expect(result.traffic).toMatchObject({ sampleFps: ENTRANCE_FPS, beesIn: 2, beesOut: 1 });
    // The frames, the counts and the tracks are the 5 fps whole frames', as without an entrance.
    expect(result.frames).toEqual(plain.frames);
    expect(result.counts).toEqual(plain.counts);
    expect(result.tracks).toEqual(plain.tracks);
    // Passages are told on those frames, at their exact time.
    const last = result.frames.at(-1)!.index;
    for (const e of result.traffic!.events) {
      expect(e.frame).toBeLessThanOrEqual(last);
      expect(e.frame / 5).toBeGreaterThanOrEqual(e.timeS - 1e-9);
      expect(e.frame / 5).toBeLessThan(e.timeS + 0.2);
    }
  });
});

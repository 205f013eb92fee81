/**
 * Previews decoded again from the file at preview size: the shipped detector, real ffmpeg, bee
 * pictures and videos drawn here.
 */
import path from 'node:path';
import { loadImage } from '@napi-rs/canvas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBeeScene, writeBeeImage, writeBeeVideo } from '../fixtures/index.ts';
import { analyseFile } from './analyse.ts';
import { Detector } from './detection/detector.ts';
import { readFrameAt, readFrames } from './media/frames.ts';
import { probeMedia } from './media/probe.ts';
import { limits, tempDir, tools } from './media/test-support.ts';
import type { RawFrame } from './types.ts';

const CARD = path.resolve('models/hivesight-detector.card.json');

let dir: string;
let cleanup: () => Promise<void>;
beforeAll(async () => {
  ({ dir, cleanup } = await tempDir('preview'));
});
afterAll(async () => cleanup());

function meanDifference(a: RawFrame, b: RawFrame): number {
  let sum = 0;
  for (let i = 0; i < a.data.length; i += 1) sum += Math.abs(a.data[i]! - b.data[i]!);
  return sum / a.data.length;
}

describe('analyseFile previews', () => {
  it('gives a 3840x1080 picture a 1600 px wide preview, not the detector-sized frame', async () => {
    const scene = randomBeeScene({ width: 3840, height: 1080, count: 8, seed: 7, beeLength: 150 });
    const { file } = await writeBeeImage(path.join(dir, 'wide.jpg'), scene);
    const detector = await Detector.open(CARD);
    const result = await analyseFile(
      file,
      { detector, tools, limits: limits() },
      { keepPreviewFrame: true },
    );
    expect(detector.inputSizeFor(3840, 1080).width).toBeLessThan(1600);
    const preview = await loadImage(result.preview!);
    expect([preview.width, preview.height]).toEqual([1600, 450]);
    const honeybees = await loadImage(result.honeybeePreview!);
    expect(honeybees.width).toBe(1600);
    expect(result.previewTimeS).toBeUndefined();
  });

  it("keeps a smaller video's own width and names the preview frame's time", async () => {
    const { file } = await writeBeeVideo(path.join(dir, 'walk.mp4'), {
      width: 640,
      height: 360,
      seconds: 2,
      fps: 10,
      count: 5,
      seed: 3,
    });
    const detector = await Detector.open(CARD);
    const result = await analyseFile(
      file,
      { detector, tools, limits: limits() },
      { keepPreviewFrame: true, sampleFps: 5 },
    );
    const preview = await loadImage(result.preview!);
    expect([preview.width, preview.height]).toEqual([640, 360]);
    const busiest = Math.max(...result.frames.map((f) => f.detections.length));
    const first = result.frames.find((f) => f.detections.length === busiest)!;
    expect(result.previewTimeS).toBe(first.timeS);
  });
});

describe('readFrameAt', () => {
  it('seeks to the sampled frame at a time, with one decode', async () => {
    const { file } = await writeBeeVideo(path.join(dir, 'seek.mp4'), {
      width: 320,
      height: 240,
      seconds: 2,
      fps: 10,
      count: 6,
      seed: 5,
      speed: 200,
    });
    const info = await probeMedia(file, { tools, limits: limits() });
    const options = { tools, limits: limits(), width: 320, height: 240 };
    const sampled: RawFrame[] = [];
    for await (const f of readFrames(file, info, { ...options, sampleFps: 5 })) sampled.push(f);
    const at = await readFrameAt(file, info, sampled[7]!.timeS, options);
    expect(at.timeS).toBeCloseTo(sampled[7]!.timeS, 6);
    // The bees walk fast: the frame seeked to matches its sampled twin far better than others.
    expect(meanDifference(at, sampled[7]!)).toBeLessThan(meanDifference(at, sampled[5]!) / 3);
    expect(meanDifference(at, sampled[7]!)).toBeLessThan(meanDifference(at, sampled[9]!) / 3);
  });
});

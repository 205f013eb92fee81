import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runFfmpeg } from '../fixtures/index.ts';
import { CorruptMediaError } from '../engine/errors.ts';
import { readFrames } from '../engine/media/frames.ts';
import { probeMedia } from '../engine/media/probe.ts';
import { limits, rejection, tempDir, tools } from '../engine/media/test-support.ts';
import type { Box, Track } from '../engine/types.ts';
import { encodePanClip, panLabels, panOffset, scorePanTracks, summarisePan } from './pan.ts';

let dir: string;
let cleanup: () => Promise<void>;
let bands: string;
beforeAll(async () => {
  ({ dir, cleanup } = await tempDir('pan-clip'));
  // Red, green and blue bands, 64 px each: what the window shows says where it is.
  bands = path.join(dir, 'bands.png');
  await runFfmpeg([
    ...['red', 'green', 'blue'].flatMap((c) => ['-f', 'lavfi', '-i', `color=c=${c}:size=64x48`]),
    '-filter_complex', 'hstack=inputs=3', '-frames:v', '1', bands,
  ]); // prettier-ignore
});
afterAll(() => cleanup());

describe('encodePanClip', () => {
  it('films the picture through a window moving from its left edge to its right', async () => {
    const out = path.join(dir, 'pan.mp4');
    const settings = { speed: 64, window: { width: 64, height: 48 } };
    await encodePanClip(bands, 192, out, { tools, limits: limits() }, settings);
    const media = await probeMedia(out, { tools, limits: limits() });
    expect(media).toMatchObject({ kind: 'video', width: 64, height: 48 });
    expect(media.durationS).toBeCloseTo(2, 1); // 128 px of travel at 64 px/s
    const strongest: number[] = [];
    const options = { tools, limits: limits(), sampleFps: 5, width: 64, height: 48 };
    for await (const f of readFrames(out, media, options)) {
      const sums = [0, 1, 2].map((c) =>
        f.data.filter((_, i) => i % 3 === c).reduce((a, b) => a + b, 0),
      );
      strongest.push(sums.indexOf(Math.max(...sums)));
    }
    expect(strongest).toHaveLength(10);
    // 0 s: the red band; 1 s: 64 px on, the green one; 1.8 s: 115 px on, mostly blue.
    expect([strongest[0], strongest[5], strongest[9]]).toEqual([0, 1, 2]);
    expect(panOffset(1, 192, settings)).toBe(64);
    expect(panOffset(5, 192, settings)).toBe(128);
  });

  it('refuses a picture no wider than the window, and one ffmpeg cannot read', async () => {
    const deps = { tools, limits: limits() };
    await expect(encodePanClip(bands, 192, path.join(dir, 'x.mp4'), deps)).rejects.toThrow(
      /no room/,
    );
    const missing = path.join(dir, 'missing.png');
    const settings = { window: { width: 64, height: 48 } };
    await rejection(
      encodePanClip(missing, 192, path.join(dir, 'y.mp4'), deps, settings),
      CorruptMediaError,
    );
  });
});

describe('scorePanTracks', () => {
  const box = (x: number, y: number, size = 40): Box => ({ x, y, width: size, height: size });
  /** A track on picture position (x, y), seen through a window 20 px further on each frame. */
  const track = (cls: Track['cls'], x: number, y: number, frames: number[], size = 40): Track => ({
    id: 0,
    cls,
    firstFrame: frames[0]!,
    lastFrame: frames.at(-1)!,
    hits: frames.length,
    boxes: frames.map((frame) => ({ frame, box: box(x - 20 * frame, y, size) })),
  });
  const offsetAt = (frame: number) => 20 * frame;

  it('sits each track on the label it overlaps, and tells doubled, stray and missed apart', () => {
    const labels = panLabels(
      [
        { cls: 'bee', box: { x: 0.1, y: 0.1, width: 0.04, height: 0.4 } },
        { cls: 'drone', box: { x: 0.3, y: 0.1, width: 0.04, height: 0.4 } },
        { cls: 'pollen', box: { x: 0.5, y: 0.1, width: 0.04, height: 0.4 } },
        { cls: 'hornet', box: { x: 0.7, y: 0.1, width: 0.04, height: 0.4 } },
      ],
      { width: 1000, height: 100 },
    );
    expect(labels.map((l) => [l.cls, l.box])).toEqual([
      ['bee', box(100, 10)],
      ['drone', box(300, 10)],
      ['pollen', box(500, 10)],
    ]);
    const tracks = [
      track('bee', 102, 10, [0, 1, 2, 3]), // on the worker
      track('bee', 98, 12, [1, 2]), // the worker again, shorter: doubled
      track('bee', 300, 10, [2, 3, 4, 5, 6]), // the drone, typed a worker
      track('bee', 800, 50, [0, 1, 2]), // on nothing
      track('drone', 301, 10, [8, 9]), // the drone again, after its first track ended
      track('drone', 299, 11, [3, 4]), // and beside it: a second box on the drone
    ];
    const outcome = scorePanTracks(tracks, { bee: 4, drone: 2 }, labels, offsetAt);
    expect(outcome).toEqual({
      labelled: { bee: 1, pollen: 1, drone: 1 },
      counted: { bee: 4, pollen: 0, drone: 2 },
      typed: {
        bee: { bee: 1, pollen: 0, drone: 0, missed: 0 },
        pollen: { bee: 0, pollen: 0, drone: 0, missed: 1 },
        drone: { bee: 1, pollen: 0, drone: 0, missed: 0 },
      },
      doubled: 3,
      doubledAfter: 1,
      onNothing: 1,
      extra: {
        bee: { doubled: 1, onNothing: 1 },
        pollen: { doubled: 0, onNothing: 0 },
        drone: { doubled: 2, onNothing: 0 },
      },
    });
    // The same tracks without moving them back by the window sit on the wrong places.
    const unmoved = scorePanTracks(tracks, { bee: 4, drone: 2 }, labels, () => 0);
    expect(unmoved.onNothing).toBeGreaterThan(1);

    const summary = summarisePan([
      outcome,
      { ...outcome, counted: { bee: 2, pollen: 0, drone: 1 } },
    ]);
    expect(summary).toMatchObject({ clips: 2, doubled: 6, doubledAfter: 2, onNothing: 2 });
    expect(summary.extra.drone).toEqual({ doubled: 4, onNothing: 0 });
    expect(summary.labelled).toEqual({ bee: 2, pollen: 2, drone: 2 });
    // 6 of 3 (+100 %) and 3 of 3 (0 %).
    expect(summary.honeybeeErrorPct).toBeCloseTo(50, 6);
    expect(summary.honeybeeBiasPct).toBeCloseTo(50, 6);
  });
});

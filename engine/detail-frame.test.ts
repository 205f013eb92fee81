/** A photo's detail frame, decoded for real by ffmpeg. */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeClip, randomBeeScene, writeBeeImage } from '../fixtures/index.ts';
import { readDetailFrame } from './detail-frame.ts';
import type { DetailSizer } from './detail-frame.ts';
import { probeMedia } from './media/probe.ts';
import { readFrames } from './media/frames.ts';
import { limits, tempDir, tools } from './media/test-support.ts';
import type { MediaKind } from './types.ts';

let dir: string;
let cleanup: () => Promise<void>;
beforeAll(async () => {
  ({ dir, cleanup } = await tempDir('detail'));
});
afterAll(() => cleanup());

/** Twice the detector's 1152-wide view, for photos only (what a card with detail 2 asks). */
const asked: MediaKind[] = [];
const twice: DetailSizer = {
  detailSizeFor: (w, h, media) => {
    asked.push(media);
    if (media !== 'image') return undefined;
    const s = Math.min(1, 1152 / w);
    return { width: Math.round(w * s * 2), height: Math.round(h * s * 2) };
  },
};
const none: DetailSizer = { detailSizeFor: () => undefined };

describe('readDetailFrame', () => {
  it('decodes a photo again, the same picture, at the size the detector asks', async () => {
    const { file } = await writeBeeImage(
      path.join(dir, 'wide.jpg'),
      randomBeeScene({ width: 3840, height: 1080, count: 12, seed: 3 }),
    );
    const media = await probeMedia(file, { tools, limits: limits() });
    const deps = { tools, limits: limits() };
    const detail = await readDetailFrame(file, media, { ...deps, detector: twice });
    expect(detail).toMatchObject({ width: 2304, height: 648 });
    expect(detail!.data).toHaveLength(2304 * 648 * 3);
    // The same picture: its 2x2 means are the detector-size frame, give or take the filters.
    const small = (
      await readFrames(file, media, { ...deps, sampleFps: 1, width: 1152, height: 324 }).next()
    ).value as { data: Uint8Array };
    let diff = 0;
    for (let y = 0; y < 324; y++) {
      for (let x = 0; x < 1152; x++) {
        const at = (yy: number, xx: number) => detail!.data[(yy * 2304 + xx) * 3]!;
        const mean =
          (at(2 * y, 2 * x) +
            at(2 * y, 2 * x + 1) +
            at(2 * y + 1, 2 * x) +
            at(2 * y + 1, 2 * x + 1)) /
          4;
        diff += Math.abs(mean - small.data[(y * 1152 + x) * 3]!);
      }
    }
    expect(diff / (1152 * 324)).toBeLessThan(6);
    expect(await readDetailFrame(file, media, { ...deps, detector: none })).toBeUndefined();
  });

  it('reads nothing for a video: its frames are decoded once', async () => {
    const file = await makeClip(dir, { seconds: 1, fps: 5, name: 'clip.mp4' });
    const media = await probeMedia(file, { tools, limits: limits() });
    asked.length = 0;
    expect(
      await readDetailFrame(file, media, { tools, limits: limits(), detector: twice }),
    ).toBeUndefined();
    expect(asked).toEqual([]);
  });
});

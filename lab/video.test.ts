import { existsSync } from 'node:fs';
import { mkdir, readdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeJpeg } from '../fixtures/index.ts';
import { CorruptMediaError } from '../engine/errors.ts';
import { limits, rejection, tempDir, tools } from '../engine/media/test-support.ts';
import { readFrames } from '../engine/media/frames.ts';
import { encodeFrameClip } from './video.ts';

let dir: string;
let cleanup: () => Promise<void>;
const frames: string[] = [];
beforeAll(async () => {
  ({ dir, cleanup } = await tempDir('frame-clip'));
  for (const colour of ['red', 'green', 'blue']) {
    frames.push(await makeJpeg(dir, { name: `${colour}.jpg`, width: 64, height: 48, colour }));
  }
});
afterAll(() => cleanup());

describe('encodeFrameClip', () => {
  it('makes a video whose samples at its rate are the frames, in order', async () => {
    const clip = await encodeFrameClip(frames, { tools, limits: limits() });
    try {
      expect(clip.media).toMatchObject({ kind: 'video', width: 64, height: 48 });
      const read = [];
      for await (const f of readFrames(clip.file, clip.media, {
        tools,
        limits: limits(),
        sampleFps: clip.fps,
        width: 64,
        height: 48,
      })) {
        read.push(f);
      }
      expect(read).toHaveLength(3);
      // Red, green, blue: each frame's strongest channel, in the order given.
      const strongest = read.map((f) => {
        const sums = [0, 1, 2].map((c) =>
          f.data.filter((_, i) => i % 3 === c).reduce((a, b) => a + b, 0),
        );
        return sums.indexOf(Math.max(...sums));
      });
      expect(strongest).toEqual([0, 1, 2]);
    } finally {
      await clip.remove();
    }
    expect(existsSync(path.dirname(clip.file))).toBe(false);
  });

  it('refuses frames that cannot be read, and leaves nothing behind', async () => {
    const root = path.join(dir, 'clips');
    await mkdir(root);
    const error = await rejection(
      encodeFrameClip(
        [frames[0]!, path.join(dir, 'missing.jpg')],
        { tools, limits: limits() },
        { tmpRoot: root },
      ),
      CorruptMediaError,
    );
    expect(error.message).toMatch(/holds 1 of the 2 frames/);
    expect(await readdir(root)).toEqual([]);
  });
});

import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  concatScriptText,
  hlsPlaylistText,
  makeClip,
  makeGab2Avi,
  makeJpeg,
  makePlaylist,
  makePng,
  makeSecretFile,
  truncateCopy,
  writeBeeImage,
  writeBeeVideo,
  randomBeeScene,
} from '../../fixtures/index.ts';
import {
  AnalysisCancelledError,
  CorruptMediaError,
  MediaLimitError,
  MediaTimeoutError,
  UnsafeMediaError,
} from '../errors.ts';
import type { MediaInfo, RawFrame } from '../types.ts';
import { readFrames } from './frames.ts';
import type { ReadFramesOptions } from './frames.ts';
import { probeMedia } from './probe.ts';
import { limits, makeSleepingTool, rejection, tempDir, tools } from './test-support.ts';

let dir: string;
let cleanup: () => Promise<void>;
beforeAll(async () => {
  ({ dir, cleanup } = await tempDir('frames'));
});
afterAll(() => cleanup());

async function collect(
  file: string,
  options: Partial<ReadFramesOptions> = {},
  info?: MediaInfo,
): Promise<RawFrame[]> {
  const media = info ?? (await probeMedia(file, { tools, limits: limits() }));
  const frames: RawFrame[] = [];
  for await (const frame of readFrames(file, media, {
    tools,
    limits: limits(),
    sampleFps: 5,
    width: 64,
    height: 48,
    ...options,
  })) {
    frames.push(frame);
  }
  return frames;
}

describe('readFrames decodes every accepted format for real', () => {
  it.each([
    ['mp4 h264', { container: 'mp4', codec: 'h264' }],
    ['avi mjpeg', { container: 'avi', codec: 'mjpeg' }],
    ['avi mpeg4', { container: 'avi', codec: 'mpeg4' }],
  ] as const)('%s: frames at the sample rate, at the requested size', async (_, clip) => {
    const file = await makeClip(dir, {
      ...clip,
      seconds: 2,
      fps: 25,
      name: `${_}.${clip.container}`,
    });
    const frames = await collect(file, { sampleFps: 5, width: 64, height: 48 });
    expect(frames).toHaveLength(10);
    frames.forEach((frame, i) => {
      expect(frame).toMatchObject({ index: i, width: 64, height: 48 });
      expect(frame.timeS).toBeCloseTo(i / 5, 5);
      expect(frame.data).toHaveLength(64 * 48 * 3);
    });
    // Real pictures, not blank buffers, and the boxes move between frames.
    expect(frames[0]!.data.some((v) => v !== 0)).toBe(true);
    expect(Buffer.from(frames[0]!.data).equals(Buffer.from(frames[5]!.data))).toBe(false);
  });

  it('samples at other rates (2/s over 3 s)', async () => {
    const file = await makeClip(dir, { seconds: 3, fps: 30, name: 'rate.mp4' });
    expect(await collect(file, { sampleFps: 2 })).toHaveLength(6);
  });

  it.each(['png', 'jpeg'] as const)('%s: exactly one frame, scaled', async (format) => {
    const file =
      format === 'png'
        ? await makePng(dir, { width: 200, height: 100, colour: '0x204080' })
        : await makeJpeg(dir, { width: 200, height: 100, colour: '0x204080' });
    const frames = await collect(file, { width: 50, height: 25 });
    expect(frames).toHaveLength(1);
    expect(frames[0]).toMatchObject({ index: 0, timeS: 0, width: 50, height: 25 });
    // The flat colour survives decoding and scaling (JPEG within a few levels).
    const [r, g, b] = frames[0]!.data;
    expect(Math.abs(r! - 0x20)).toBeLessThan(8);
    expect(Math.abs(g! - 0x40)).toBeLessThan(8);
    expect(Math.abs(b! - 0x80)).toBeLessThan(8);
  });

  it('decodes the synthetic bee board and the bee video', async () => {
    const image = await writeBeeImage(
      path.join(dir, 'bees/board.png'),
      randomBeeScene({ count: 5 }),
    );
    expect(await collect(image.file, { width: 320, height: 240 })).toHaveLength(1);
    const video = await writeBeeVideo(path.join(dir, 'bees/walk.mp4'), { seconds: 2, fps: 10 });
    expect(await collect(video.file, { sampleFps: 5 })).toHaveLength(10);
  });
});

describe('readFrames keeps memory and time bounded', () => {
  it('applies backpressure: a slow consumer holds ffmpeg back', async () => {
    const file = await makeClip(dir, {
      seconds: 4,
      fps: 25,
      width: 320,
      height: 240,
      name: 'bp.mp4',
    });
    const media = await probeMedia(file, { tools, limits: limits() });
    const frames = readFrames(file, media, {
      tools,
      limits: limits(),
      sampleFps: 25,
      width: 320,
      height: 240,
    });
    const first = await frames.next();
    expect(first.done).toBe(false);
    const before = process.memoryUsage().arrayBuffers;
    await new Promise((resolve) => setTimeout(resolve, 1500));
    // 100 frames of 230 kB would be 23 MB if ffmpeg had been allowed to run ahead.
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(4 * 1024 * 1024);
    let count = 1;
    for await (const _ of frames) count += 1;
    expect(count).toBe(100);
  });

  it('stops ffmpeg when the consumer stops early', async () => {
    const file = await makeClip(dir, { seconds: 2, name: 'early.mp4' });
    const media = await probeMedia(file, { tools, limits: limits() });
    let seen = 0;
    for await (const _ of readFrames(file, media, {
      tools,
      limits: limits(),
      sampleFps: 5,
      width: 32,
      height: 24,
    })) {
      seen += 1;
      if (seen === 2) break;
    }
    expect(seen).toBe(2);
  });

  it('kills ffmpeg on a timeout', async () => {
    const file = await makeClip(dir, { seconds: 2, name: 'slow.mp4' });
    const media = await probeMedia(file, { tools, limits: limits() });
    // A real ffmpeg given almost no time (it may, on a fast machine, just make it).
    const real = await collect(file, { limits: limits({ timeoutMs: 1 }) }, media).catch(
      (e: unknown) => e,
    );
    if (real instanceof Error) expect(real).toBeInstanceOf(MediaTimeoutError);
    // A decoder that never answers is killed when its time is up.
    const sleeping = { ffmpeg: await makeSleepingTool(dir), ffprobe: tools.ffprobe };
    const started = Date.now();
    await rejection(
      collect(file, { tools: sleeping, limits: limits({ timeoutMs: 300 }) }, media),
      MediaTimeoutError,
    );
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('kills ffmpeg when the caller aborts, and refuses to start when already aborted', async () => {
    const file = await makeClip(dir, { seconds: 2, name: 'abort.mp4' });
    const media = await probeMedia(file, { tools, limits: limits() });
    const controller = new AbortController();
    const run = (async () => {
      for await (const frame of readFrames(file, media, {
        tools,
        limits: limits(),
        sampleFps: 5,
        width: 32,
        height: 24,
        signal: controller.signal,
      })) {
        if (frame.index === 1) controller.abort();
      }
    })();
    await rejection(run, AnalysisCancelledError);
    await rejection(collect(file, { signal: controller.signal }, media), AnalysisCancelledError);
  });

  it('stops a video that yields more frames than its limits allow', async () => {
    const file = await makeClip(dir, { seconds: 3, name: 'long.mp4' });
    const media = await probeMedia(file, { tools, limits: limits() });
    const error = await rejection(
      collect(file, { limits: limits({ maxDurationS: 1 }) }, media),
      MediaLimitError,
    );
    expect(error.limit).toBe('duration');
  });
});

describe('readFrames on damaged or hostile input', () => {
  it('reports a truncated AVI it is given anyway as corrupt or decodes what is there', async () => {
    const avi = await makeClip(dir, { container: 'avi', seconds: 2, name: 'cut-src.avi' });
    const cut = await truncateCopy(avi, path.join(dir, 'cut.avi'), 0.02);
    const media: MediaInfo = {
      kind: 'video', format: 'avi', width: 320, height: 240, durationS: 2, fps: 25, sizeBytes: 1,
    }; // prettier-ignore
    await rejection(collect(cut, {}, media), CorruptMediaError);
  });

  it('refuses a cut-off JPEG (whose header is intact) rather than analyse a grey half', async () => {
    const jpeg = await makeJpeg(dir, { width: 640, height: 480, name: 'whole.jpg' });
    const cut = await truncateCopy(jpeg, path.join(dir, 'half.jpg'), 0.7);
    const media = await probeMedia(cut, { tools, limits: limits() });
    await rejection(collect(cut, {}, media), CorruptMediaError);
  });

  it('never opens the file a GAB2 AVI or a playlist points at, even past the sniffer', async () => {
    const secret = await makeSecretFile(dir);
    const media: MediaInfo = {
      kind: 'video', format: 'avi', width: 64, height: 48, durationS: 1, fps: 1, sizeBytes: 1,
    }; // prettier-ignore
    for (const text of [hlsPlaylistText(secret.file), concatScriptText(secret.file)]) {
      const file = await makeGab2Avi(dir, text, `gab2-${text.length}.avi`);
      const frames = await collect(file, { width: 64, height: 48 }, media).catch((e: Error) => e);
      const seen =
        frames instanceof Error
          ? `${frames.message} ${String(frames.cause)}`
          : Buffer.concat(frames.map((f) => f.data)).toString('latin1');
      expect(seen).not.toContain(secret.marker);
    }
    const playlist = await makePlaylist(dir, secret.file, 'list.mp4');
    const error = await rejection(
      collect(playlist, {}, { ...media, format: 'mp4' }),
      CorruptMediaError,
    );
    expect(`${error.message} ${String(error.cause)}`).not.toContain(secret.marker);
    expect(UnsafeMediaError).toBeDefined();
  });
});

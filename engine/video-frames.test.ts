import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeClip } from '../fixtures/index.ts';
import { AnalysisCancelledError } from './errors.ts';
import { limits, rejection, tempDir, tools } from './media/test-support.ts';
import { probeMedia } from './media/probe.ts';
import type { MediaInfo, RawFrame, VideoAnalysis } from './types.ts';
import { frameMedia, readVideoFrames } from './video-frames.ts';
import type { VideoFrame, VideoFrameSizer } from './video-frames.ts';

let dir: string;
let cleanup: () => Promise<void>;
let clip: string;
let media: MediaInfo;
beforeAll(async () => {
  ({ dir, cleanup } = await tempDir('video-frames'));
  // Two yellow boxes crossing a brown board: consecutive frames differ.
  clip = await makeClip(dir, { width: 640, height: 360, seconds: 2, fps: 25 });
  media = await probeMedia(clip, { tools, limits: limits() });
});
afterAll(() => cleanup());

/** A detector's sizing: input 160x90 at zoom 1, detail twice that where asked for photos. */
function sizer(detail: number): VideoFrameSizer {
  const input = (zoom = 1) => ({ width: 160 * zoom, height: 90 * zoom });
  return {
    inputSizeFor: (_w, _h, zoom) => input(zoom),
    detailSizeFor: (_w, _h, kind, zoom) => {
      if (kind !== 'image' || detail <= 1) return undefined;
      const { width, height } = input(zoom);
      return { width: width * detail, height: height * detail };
    },
  };
}

async function collect(
  analysis: VideoAnalysis,
  detail = 2,
  signal?: AbortSignal,
): Promise<VideoFrame[]> {
  const out: VideoFrame[] = [];
  const deps = { detector: sizer(detail), tools, limits: limits() };
  const options = { sampleFps: 5, zoom: 1, analysis, ...(signal ? { signal } : {}) };
  for await (const pair of readVideoFrames(clip, media, deps, options)) out.push(pair);
  return out;
}

/** Mean absolute difference between `frame` and `detail` averaged down to its size. */
function difference(frame: RawFrame, detail: RawFrame): number {
  const k = detail.width / frame.width;
  let sum = 0;
  for (let y = 0; y < frame.height; y++) {
    for (let x = 0; x < frame.width; x++) {
      for (let c = 0; c < 3; c++) {
        let v = 0;
        for (let dy = 0; dy < k; dy++) {
          for (let dx = 0; dx < k; dx++) {
            v += detail.data[((y * k + dy) * detail.width + x * k + dx) * 3 + c]!;
          }
        }
        sum += Math.abs(v / (k * k) - frame.data[(y * frame.width + x) * 3 + c]!);
      }
    }
  }
  return sum / (frame.width * frame.height * 3);
}

describe('readVideoFrames', () => {
  it('detects fast frames as video and thorough ones as photos', () => {
    expect(frameMedia('fast')).toBe('video');
    expect(frameMedia('thorough')).toBe('image');
  });

  it('gives the fast path its frames alone, at the input size', async () => {
    const frames = await collect('fast');
    expect(frames.map((f) => f.frame.index)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(frames.every((f) => f.detailFrame === undefined)).toBe(true);
    expect(frames[0]!.frame).toMatchObject({ width: 160, height: 90 });
  });

  it('pairs each thorough frame with the same moment decoded at the detail size', async () => {
    const pairs = await collect('thorough');
    expect(pairs).toHaveLength(10);
    for (const [i, { frame, detailFrame }] of pairs.entries()) {
      expect(frame).toMatchObject({ index: i, width: 160, height: 90 });
      expect(detailFrame).toMatchObject({ index: i, timeS: frame.timeS, width: 320, height: 180 });
    }
    // The same moment, not a neighbour: the boxes move between samples.
    const same = difference(pairs[4]!.frame, pairs[4]!.detailFrame!);
    const next = difference(pairs[4]!.frame, pairs[5]!.detailFrame!);
    expect(same).toBeLessThan(2);
    expect(next).toBeGreaterThan(2 * same);
  });

  it('decodes once where the detector wants no detail frame', async () => {
    const pairs = await collect('thorough', 1);
    expect(pairs).toHaveLength(10);
    expect(pairs.every((p) => p.detailFrame === undefined)).toBe(true);
  });

  it('stops both streams when cancelled', async () => {
    const controller = new AbortController();
    const seen: number[] = [];
    const deps = { detector: sizer(2), tools, limits: limits() };
    const run = (async () => {
      for await (const { frame } of readVideoFrames(clip, media, deps, {
        sampleFps: 5,
        zoom: 1,
        analysis: 'thorough',
        signal: controller.signal,
      })) {
        seen.push(frame.index);
        if (frame.index === 2) controller.abort();
      }
    })();
    await rejection(run, AnalysisCancelledError);
    expect(seen).toEqual([0, 1, 2]);
  });

  it('ends both streams when the consumer stops early', async () => {
    const deps = { detector: sizer(2), tools, limits: limits() };
    const frames = readVideoFrames(clip, media, deps, {
      sampleFps: 5,
      zoom: 1,
      analysis: 'thorough',
    });
    const first = await frames.next();
    expect(first.done).toBe(false);
    await frames.return(undefined);
    expect((await frames.next()).done).toBe(true);
  });
});

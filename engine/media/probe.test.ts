import { writeFile } from 'node:fs/promises';
import { execa } from 'execa';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  copyAs,
  makeAudioOnlyMp4,
  makeClip,
  makeConcatScript,
  makeEmptyFile,
  makeExternalRefMp4,
  makeGab2Avi,
  makeGarbageFile,
  makeJpeg,
  makePlaylist,
  makePlaylistAvi,
  makePlaylistMp4,
  makePng,
  makePngBomb,
  makeSecretFile,
  hlsPlaylistText,
  concatScriptText,
  truncateCopy,
} from '../../fixtures/index.ts';
import {
  AnalysisCancelledError,
  CorruptMediaError,
  MediaLimitError,
  MediaTimeoutError,
  UnsafeMediaError,
  UnsupportedMediaError,
} from '../errors.ts';
import { readFrames } from './frames.ts';
import { creationTime, probeMedia } from './probe.ts';
import { isProtocolRefusal, runTool } from './run-tool.ts';
import { sniffFile, UNSUPPORTED_MESSAGE } from './sniff.ts';
import { limits, makeSleepingTool, rejection, tempDir, tools } from './test-support.ts';

let dir: string;
let cleanup: () => Promise<void>;
const files: Record<string, string> = {};
let secret: { file: string; marker: string };

beforeAll(async () => {
  ({ dir, cleanup } = await tempDir('probe'));
  secret = await makeSecretFile(dir);
  files.mp4 = await makeClip(dir, { seconds: 2, fps: 25, width: 320, height: 240 });
  files.avi = await makeClip(dir, { seconds: 2, container: 'avi', width: 160, height: 120 });
  files.png = await makePng(dir, { width: 200, height: 100 });
  files.jpeg = await makeJpeg(dir, { width: 120, height: 90 });
}, 60_000);
afterAll(() => cleanup());

const probe = (file: string, overrides = {}) =>
  probeMedia(file, { tools, limits: limits(overrides) });

describe('sniffFile', () => {
  it('identifies each format by content and reads picture sizes from the header', async () => {
    expect(await sniffFile(files.mp4!)).toEqual({ format: 'mp4' });
    expect(await sniffFile(files.avi!)).toEqual({ format: 'avi' });
    expect(await sniffFile(files.png!)).toEqual({ format: 'png', width: 200, height: 100 });
    expect(await sniffFile(files.jpeg!)).toEqual({ format: 'jpeg', width: 120, height: 90 });
  });

  it('refuses noise with the user-facing message', async () => {
    const error = await rejection(sniffFile(await makeGarbageFile(dir)), UnsupportedMediaError);
    expect(error.message).toBe(UNSUPPORTED_MESSAGE);
  });
});

describe('probeMedia', () => {
  it('describes an MP4 (h264)', async () => {
    const info = await probe(files.mp4!);
    expect(info).toMatchObject({ kind: 'video', format: 'mp4', width: 320, height: 240, fps: 25 });
    expect(info.durationS).toBeCloseTo(2, 1);
    expect(info.sizeBytes).toBeGreaterThan(0);
  });

  it("reads a container's creation time when it holds a plausible one", async () => {
    expect((await probe(files.mp4!)).recordedAt).toBeUndefined();
    const stamped = path.join(dir, 'stamped.mp4');
    await execa(tools.ffmpeg, [
      '-y', '-loglevel', 'error', '-i', files.mp4!, '-c', 'copy',
      '-metadata', 'creation_time=2026-06-01T10:15:00Z', stamped,
    ]); // prettier-ignore
    expect((await probe(stamped)).recordedAt).toBe('2026-06-01T10:15:00.000Z');
    expect(creationTime('1970-01-01T00:00:00.000000Z')).toBeUndefined();
    expect(creationTime('1904-01-01T00:00:00Z')).toBeUndefined();
    expect(creationTime('not a date')).toBeUndefined();
  });

  it('describes an AVI, a PNG and a JPEG', async () => {
    expect(await probe(files.avi!)).toMatchObject({ kind: 'video', format: 'avi', width: 160 });
    expect(await probe(files.png!)).toMatchObject({
      kind: 'image',
      format: 'png',
      width: 200,
      height: 100,
      durationS: 0,
      fps: 0,
    });
    expect(await probe(files.jpeg!)).toMatchObject({ kind: 'image', format: 'jpeg', width: 120 });
  });

  it('goes by content, not by name: a JPEG named .mp4 and an MP4 named .jpg', async () => {
    const jpegAsMp4 = await copyAs(files.jpeg!, path.join(dir, 'renamed/photo.mp4'));
    const mp4AsJpg = await copyAs(files.mp4!, path.join(dir, 'renamed/clip.jpg'));
    expect(await probe(jpegAsMp4)).toMatchObject({ kind: 'image', format: 'jpeg' });
    expect(await probe(mp4AsJpg)).toMatchObject({ kind: 'video', format: 'mp4' });
  });

  it('refuses an empty file', async () => {
    const error = await rejection(probe(await makeEmptyFile(dir)), CorruptMediaError);
    expect(error.message).toBe('The file is empty.');
  });

  it('refuses noise named .mp4', async () => {
    await rejection(probe(await makeGarbageFile(dir, 'noise.mp4')), UnsupportedMediaError);
  });

  it('refuses truncated MP4 (header at the end or at the start) and AVI', async () => {
    const tail = await truncateCopy(files.mp4!, path.join(dir, 'cut/tail.mp4'), 0.6);
    await rejection(probe(tail), CorruptMediaError);
    const fast = await makeClip(dir, { name: 'fast.mp4', faststart: true });
    const cutFast = await truncateCopy(fast, path.join(dir, 'cut/fast.mp4'), 0.6);
    await rejection(probe(cutFast), CorruptMediaError);
    const avi = await truncateCopy(files.avi!, path.join(dir, 'cut/clip.avi'), 0.5);
    await rejection(probe(avi), CorruptMediaError);
    const png = await truncateCopy(files.png!, path.join(dir, 'cut/pic.png'), 20);
    await rejection(probe(png), CorruptMediaError);
    const halfPng = await truncateCopy(files.png!, path.join(dir, 'cut/half.png'), 0.7);
    await rejection(probe(halfPng), CorruptMediaError);
    const jpeg = await truncateCopy(files.jpeg!, path.join(dir, 'cut/pic.jpg'), 100);
    await rejection(probe(jpeg), CorruptMediaError);
  });

  it('refuses an MP4 with sound and no picture', async () => {
    const error = await rejection(probe(await makeAudioOnlyMp4(dir)), UnsupportedMediaError);
    expect(error.message).toMatch(/no picture track/);
  });

  it('reports a rotated phone video upright, as ffmpeg decodes it', async () => {
    const file = await makeClip(dir, { name: 'rotated.mp4', width: 320, height: 240, rotate: 90 });
    const media = await probe(file);
    expect(media).toMatchObject({ width: 240, height: 320 });
    let count = 0;
    for await (const frame of readFrames(file, media, {
      tools,
      limits: limits(),
      sampleFps: 5,
      width: 24,
      height: 32,
    })) {
      expect(frame.data).toHaveLength(24 * 32 * 3);
      count += 1;
    }
    expect(count).toBe(10);
  });

  it('refuses a PNG bomb from its header alone', async () => {
    const bomb = await makePngBomb(dir);
    const error = await rejection(
      // An ffprobe that cannot run proves nothing decoded the file.
      probeMedia(bomb, {
        tools: { ffmpeg: '/nonexistent', ffprobe: '/nonexistent' },
        limits: limits(),
      }),
      MediaLimitError,
    );
    expect(error.limit).toBe('resolution');
    expect(error.message).toMatch(/60000x60000/);
  });

  it('refuses a video longer than the limit, saying both numbers', async () => {
    const error = await rejection(probe(files.mp4!, { maxDurationS: 1 }), MediaLimitError);
    expect(error.limit).toBe('duration');
    expect(error.message).toBe('The video is 2 s long; the limit is 1 s.');
  });

  it('refuses too many frames and too large a frame', async () => {
    const frames = await rejection(probe(files.mp4!, { maxFrames: 10 }), MediaLimitError);
    expect(frames.limit).toBe('frames');
    const size = await rejection(probe(files.mp4!, { maxWidth: 300 }), MediaLimitError);
    expect(size.limit).toBe('resolution');
    const pixels = await rejection(probe(files.png!, { maxPixels: 10_000 }), MediaLimitError);
    expect(pixels.limit).toBe('resolution');
  });

  it('kills ffprobe on a timeout and on abort', async () => {
    const sleeping = { ffmpeg: tools.ffmpeg, ffprobe: await makeSleepingTool(dir) };
    const started = Date.now();
    const timedOut = await rejection(
      probeMedia(files.mp4!, { tools: sleeping, limits: limits({ timeoutMs: 300 }) }),
      MediaTimeoutError,
    );
    expect(timedOut.message).toMatch(/took longer than/);
    const controller = new AbortController();
    const running = probeMedia(files.mp4!, {
      tools: sleeping,
      limits: limits(),
      signal: controller.signal,
    });
    setTimeout(() => controller.abort(), 200);
    await rejection(running, AnalysisCancelledError);
    expect(Date.now() - started).toBeLessThan(10_000);
    // And a real ffprobe given almost no time.
    const real = await probe(files.mp4!, { timeoutMs: 1 }).catch((e: unknown) => e);
    if (real instanceof Error) expect(real).toBeInstanceOf(MediaTimeoutError);
  });
});

describe('hostile files', () => {
  const noSecret = (error: Error) => {
    expect(`${error.message} ${String(error.cause)}`).not.toContain(secret.marker);
  };

  it('refuses text playlists and concat scripts under media names', async () => {
    for (const file of [
      await makePlaylist(dir, secret.file, 'hostile/list.mp4'),
      await makePlaylist(dir, secret.file, 'hostile/list.avi'),
      await makePlaylist(dir, secret.file, 'hostile/list.m3u8'),
      await makeConcatScript(dir, secret.file, 'hostile/concat.avi'),
    ]) {
      noSecret(await rejection(probe(file), UnsupportedMediaError));
    }
  });

  it('refuses an AVI that wraps a playlist or a concat script', async () => {
    for (const kind of ['hls', 'concat'] as const) {
      const file = await makePlaylistAvi(dir, secret.file, { kind, name: `hostile/${kind}.avi` });
      noSecret(await rejection(probe(file), UnsafeMediaError));
    }
  });

  it('refuses an AVI with a GAB2 subtitle carrying a playlist or concat script', async () => {
    const hls = await makeGab2Avi(dir, hlsPlaylistText(secret.file), 'hostile/gab2-hls.avi');
    noSecret(await rejection(probe(hls), UnsafeMediaError));
    const concat = await makeGab2Avi(dir, concatScriptText(secret.file), 'hostile/gab2-cat.avi');
    noSecret(await rejection(probe(concat), UnsafeMediaError));
  });

  it('decodes an MP4 that merely carries playlist text, without opening the target', async () => {
    const file = await makePlaylistMp4(dir, secret.file, 'hostile/carries.mp4');
    const media = await probe(file);
    const frames: Buffer[] = [];
    for await (const frame of readFrames(file, media, {
      tools,
      limits: limits(),
      sampleFps: 5,
      width: 32,
      height: 24,
    })) {
      frames.push(Buffer.from(frame.data));
    }
    expect(frames).toHaveLength(5);
    expect(Buffer.concat(frames).toString('latin1')).not.toContain(secret.marker);
  });

  it('recognises ffmpeg refusing another protocol (real stderr)', async () => {
    const list = path.join(dir, 'hostile/remote.m3u8');
    await writeFile(list, '#EXTM3U\n#EXTINF:1,\nhttp://127.0.0.1:9/x.ts\n#EXT-X-ENDLIST\n');
    const run = await runTool(
      tools.ffprobe,
      ['-hide_banner', '-protocol_whitelist', 'file', '-f', 'hls', '-i', `file:${list}`],
      { timeoutMs: 20_000, maxStdoutBytes: 1 << 20 },
    );
    expect(isProtocolRefusal(run.stderr)).toBe(true);
    expect(isProtocolRefusal('Invalid data found when processing input')).toBe(false);
  });

  it('refuses an MP4 whose data lives in another file (dref)', async () => {
    const file = await makeExternalRefMp4(dir, 'hostile/dref.mp4');
    const error = await rejection(probe(file), UnsafeMediaError);
    expect(error.message).toMatch(/other files/);
  });
});

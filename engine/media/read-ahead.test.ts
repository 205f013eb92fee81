/**
 * An ffmpeg without the `fifo` muxer (a minimal or future build behind FFMPEG_PATH) still reads
 * a video: a wrapper around the real ffmpeg refuses `-f fifo` with the real ffmpeg's own error
 * text, and readFrames falls back to plain output once, and for good for that binary.
 */
import { spawnSync } from 'node:child_process';
import { chmod, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeClip, truncateCopy } from '../../fixtures/index.ts';
import { CorruptMediaError } from '../errors.ts';
import type { MediaInfo, RawFrame } from '../types.ts';
import { readFrames } from './frames.ts';
import { probeMedia } from './probe.ts';
import { limits, rejection, tempDir, tools } from './test-support.ts';
import type { MediaTools } from './tools.ts';

let dir: string;
let cleanup: () => Promise<void>;
let clip: string;
let media: MediaInfo;
beforeAll(async () => {
  ({ dir, cleanup } = await tempDir('read-ahead'));
  clip = await makeClip(dir, { seconds: 2, fps: 25, name: 'clip.mp4' });
  media = await probeMedia(clip, { tools, limits: limits() });
});
afterAll(() => cleanup());

async function collect(file: string, with_: MediaTools, info = media): Promise<RawFrame[]> {
  const frames: RawFrame[] = [];
  const options = { tools: with_, limits: limits(), sampleFps: 5, width: 64, height: 48 };
  for await (const frame of readFrames(file, info, options)) frames.push(frame);
  return frames;
}

/**
 * What the real ffmpeg prints, and its exit code, when refusing `-f fifo` for lack of the muxer
 * (`how: 'format'`) or of the muxer's first option (`how: 'option'`): the real refusal of a name
 * it does not know, with that name swapped for the missing one.
 */
function realRefusal(how: 'format' | 'option'): { stderr: string; code: number } {
  const unknown = 'hivesight_no_such_name';
  const output = how === 'format' ? ['-f', unknown] : ['-f', 'rawvideo', `-${unknown}`, '0'];
  const args = ['-hide_banner', '-loglevel', 'error', '-i', clip, ...output, 'pipe:1'];
  const result = spawnSync(tools.ffmpeg, args, { encoding: 'utf8' });
  expect(result.status).not.toBe(0);
  expect(result.stderr).toContain(unknown);
  const missing = how === 'format' ? 'fifo' : 'fifo_format';
  return { stderr: result.stderr.replaceAll(unknown, missing), code: result.status ?? 1 };
}

/**
 * A real executable standing in for ffmpeg: logs each call's arguments, refuses `-f fifo` as
 * `refusal` says (when given), and runs the real ffmpeg for everything else.
 */
async function wrapper(
  name: string,
  refusal?: { stderr: string; code: number },
): Promise<{ tools: MediaTools; calls: () => Promise<string[]> }> {
  const bin = path.join(dir, `${name}.sh`);
  const log = path.join(dir, `${name}.log`);
  const text = path.join(dir, `${name}.stderr`);
  for (const p of [bin, log, tools.ffmpeg]) expect(p).not.toContain("'");
  await writeFile(log, '');
  await writeFile(text, refusal?.stderr ?? '');
  const refuse = refusal
    ? [
        'prev=',
        'for arg in "$@"; do',
        `  if [ "$prev" = "-f" ] && [ "$arg" = "fifo" ]; then cat '${text}' >&2; exit ${refusal.code}; fi`,
        '  prev=$arg',
        'done',
      ]
    : [];
  const script = [
    '#!/bin/sh',
    `printf '%s\\n' "$*" >> '${log}'`,
    ...refuse,
    `exec '${tools.ffmpeg}' "$@"`,
  ];
  await writeFile(bin, `${script.join('\n')}\n`);
  await chmod(bin, 0o755);
  const calls = async (): Promise<string[]> =>
    (await readFile(log, 'utf8')).split('\n').filter((line) => line !== '');
  return { tools: { ffmpeg: bin, ffprobe: tools.ffprobe }, calls };
}

const usesFifo = (call: string): boolean => / -f fifo /.test(` ${call} `);

describe('readFrames with an ffmpeg that has no fifo muxer', () => {
  it.each(['format', 'option'] as const)(
    'unknown %s: the same frames through plain output, and fifo is not tried again',
    async (how) => {
      const expected = await collect(clip, tools);
      expect(expected).toHaveLength(10);
      const fifoless = await wrapper(`no-fifo-${how}`, realRefusal(how));

      const first = await collect(clip, fifoless.tools);
      expect(first.map((f) => [f.index, f.timeS])).toEqual(expected.map((f) => [f.index, f.timeS]));
      first.forEach((frame, i) => {
        expect(Buffer.from(frame.data).equals(Buffer.from(expected[i]!.data))).toBe(true);
      });
      expect((await fifoless.calls()).map(usesFifo)).toEqual([true, false]);

      const second = await collect(clip, fifoless.tools);
      expect(second).toHaveLength(expected.length);
      expect((await fifoless.calls()).map(usesFifo)).toEqual([true, false, false]);
    },
  );

  it('still reports a corrupt video as corrupt, trying plain output once', async () => {
    const avi = await makeClip(dir, { container: 'avi', seconds: 2, name: 'src.avi' });
    const cut = await truncateCopy(avi, path.join(dir, 'cut.avi'), 0.02);
    const info: MediaInfo = { ...media, format: 'avi' };
    const fifoless = await wrapper('no-fifo-corrupt', realRefusal('format'));
    await rejection(collect(cut, fifoless.tools, info), CorruptMediaError);
    expect((await fifoless.calls()).map(usesFifo)).toEqual([true, false]);
    await rejection(collect(cut, fifoless.tools, info), CorruptMediaError);
    expect((await fifoless.calls()).map(usesFifo)).toEqual([true, false, false]);
  });

  it('does not take a corrupt video for a missing fifo muxer', async () => {
    const avi = await makeClip(dir, { container: 'avi', seconds: 2, name: 'src2.avi' });
    const cut = await truncateCopy(avi, path.join(dir, 'cut2.avi'), 0.02);
    const real = await wrapper('with-fifo');
    await rejection(collect(cut, real.tools, { ...media, format: 'avi' }), CorruptMediaError);
    expect((await real.calls()).map(usesFifo)).toEqual([true]);
    expect(await collect(clip, real.tools)).toHaveLength(10);
    expect((await real.calls()).map(usesFifo)).toEqual([true, true]);
  });
});

import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ToolMissingError } from '../errors.ts';
import { resolveMediaTools } from './tools.ts';

const hasFfmpegStatic = (() => {
  try {
    createRequire(import.meta.url).resolve('ffmpeg-static');
    return true;
  } catch {
    return false;
  }
})();

describe('resolveMediaTools', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'hivesight-tools-'));
    for (const name of ['ffmpeg', 'ffprobe']) {
      await writeFile(path.join(dir, name), '#!/bin/sh\n');
      await chmod(path.join(dir, name), 0o755);
    }
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('takes FFMPEG_PATH / FFPROBE_PATH first', () => {
    const tools = resolveMediaTools({
      FFMPEG_PATH: path.join(dir, 'ffmpeg'),
      FFPROBE_PATH: path.join(dir, 'ffprobe'),
      PATH: '',
    });
    expect(tools).toEqual({ ffmpeg: path.join(dir, 'ffmpeg'), ffprobe: path.join(dir, 'ffprobe') });
  });

  it('says which variable points nowhere', () => {
    expect(() => resolveMediaTools({ FFMPEG_PATH: path.join(dir, 'nope'), PATH: dir })).toThrow(
      /FFMPEG_PATH is set to .*nope/,
    );
  });

  it('falls back to the PATH (after any *-static package)', () => {
    const tools = resolveMediaTools({ PATH: dir });
    if (!hasFfmpegStatic) expect(tools.ffmpeg).toBe(path.join(dir, 'ffmpeg'));
    // ffprobe-static, when installed with its binary, comes before the PATH.
    expect(
      tools.ffprobe === path.join(dir, 'ffprobe') || tools.ffprobe.includes('ffprobe-static'),
    ).toBe(true);
  });

  it.skipIf(hasFfmpegStatic)('throws ToolMissingError when nothing is found', () => {
    let error: unknown;
    try {
      resolveMediaTools({ PATH: path.join(dir, 'empty') });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ToolMissingError);
    expect((error as Error).message).toMatch(/ffmpeg was not found/);
  });
});

/** Shared setup for the media tests: real tools, a temp folder, and error assertions. */
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'vitest';
import { DEFAULT_LIMITS } from './limits.ts';
import type { MediaLimits } from './limits.ts';
import { resolveMediaTools } from './tools.ts';

export const tools = resolveMediaTools();

export function limits(overrides: Partial<MediaLimits> = {}): MediaLimits {
  return { ...DEFAULT_LIMITS, ...overrides };
}

export async function tempDir(
  prefix: string,
): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const dir = await mkdtemp(path.join(tmpdir(), `hivesight-${prefix}-`));
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

/** Awaits `promise`, expecting it to reject with an instance of `type`; returns the error. */
export async function rejection<T extends Error>(
  promise: Promise<unknown>,
  type: abstract new (...args: never[]) => T,
): Promise<T> {
  const error: unknown = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(type);
  return error as T;
}

/**
 * A stand-in ffmpeg/ffprobe that never finishes (it sleeps), to test that timeouts and aborts
 * really kill the process, without racing a fast real tool.
 */
export async function makeSleepingTool(dir: string): Promise<string> {
  const file = path.join(dir, 'sleeping-tool.sh');
  await writeFile(file, '#!/bin/sh\nexec sleep 60\n');
  await chmod(file, 0o755);
  return file;
}

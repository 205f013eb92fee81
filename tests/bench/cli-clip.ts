/**
 * The CLI on a 720p clip, as a user runs it: `node bin/hivesight.mjs analyze CLIP` (the compiled
 * CLI, process start-up, model load, preview and reports included) against the ffmpeg floor of
 * the same clip (an ffmpeg process decoding it, sampling at the default rate, scaling to the
 * detector's input size and writing rgb24 to a pipe, drained). Wall time is the target; the CPU
 * time of each (the process and its children) is reported beside it, as a busy host inflates
 * wall times far more than CPU time.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { childrenCpuMs } from './bench-support.ts';

export interface TimedRun {
  wallS: number;
  /** User + system CPU seconds of the process and its children; null off Linux. */
  cpuS: number | null;
}

/** Runs `command args` to completion, timed; throws with its stderr when it fails. */
export async function timedProcess(command: string, args: readonly string[]): Promise<TimedRun> {
  const cpu0 = childrenCpuMs();
  const started = performance.now();
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  // The output is drained and thrown away, as the floor's frames are.
  child.stdout.on('data', () => undefined);
  child.stderr.on('data', (chunk: Buffer) => {
    if (stderr.length < 64 * 1024) stderr += chunk.toString();
  });
  const code = await new Promise<number | null>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', resolve);
  });
  const wallS = (performance.now() - started) / 1000;
  if (code !== 0) throw new Error(`${command} ${args.join(' ')} failed (${code}): ${stderr}`);
  const cpu1 = childrenCpuMs();
  return { wallS, cpuS: cpu0 === null || cpu1 === null ? null : (cpu1 - cpu0) / 1000 };
}

/** The floor: ffmpeg alone, with the input and filter arguments `readFrames` gives it. */
export function cliFloor(
  ffmpeg: string,
  inputArgs: readonly string[],
  size: { width: number; height: number },
  sampleFps: number,
): Promise<TimedRun> {
  return timedProcess(ffmpeg, [
    '-nostdin',
    ...inputArgs,
    '-map', '0:v:0', '-an', '-sn', '-dn',
    '-vf', `fps=${sampleFps},scale=${size.width}:${size.height}:flags=bilinear`,
    '-pix_fmt', 'rgb24',
    '-f', 'rawvideo',
    'pipe:1',
  ]); // prettier-ignore
}

/**
 * `hivesight analyze clip` through the launcher users run, its reports written under `outDir`;
 * `model` (a card) replaces the shipped detector, as the engine rows of the bench do.
 */
export function cliAnalyze(clip: string, outDir: string, model?: string): Promise<TimedRun> {
  fs.rmSync(outDir, { recursive: true, force: true });
  return timedProcess(process.execPath, [
    path.resolve('bin/hivesight.mjs'),
    'analyze',
    clip,
    '--out',
    outDir,
    ...(model ? ['--model', path.resolve(model)] : []),
  ]);
}

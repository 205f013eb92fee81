/**
 * The quality grade through the public engine API, with the real model and ffmpeg, on a real
 * hive-entrance TRAINING frame (the thresholds were chosen on the training frames, so one of them
 * must grade good) and on two views of it no training frame looks like: a window of 1/3 of it
 * (bees 3x larger than the model learnt, more than auto-zoom can take back) and the frame
 * blurred. The grade reaches the summary CSV. Skips with a message when the frame is absent.
 */
import { existsSync, promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine, QUALITY_THRESHOLDS, summaryCsv } from '../../engine/index.ts';
import type { AnalysisResult, Engine } from '../../engine/index.ts';
import { runFfmpeg } from '../../fixtures/index.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const FRAME = path.resolve(
  ROOT,
  '../shared/datasets/hive-entrance/images/GH010990.MP4_frame_800.jpg',
);
const present = existsSync(FRAME);
if (!present) console.warn(`quality-grade: ${FRAME} is absent; skipping.`);

const qualityCell = (result: AnalysisResult): string => {
  const [header, row] = summaryCsv([result]).trim().split('\n');
  return row!.split(',')[header!.split(',').indexOf('quality')]!;
};

describe.skipIf(!present)('quality grade on a hive frame', () => {
  let dir: string;
  let engine: Engine;

  beforeAll(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'hivesight-quality-'));
    engine = await createEngine({ threads: 2 });
  }, 60_000);
  afterAll(async () => {
    if (dir) await fs.rm(dir, { recursive: true, force: true });
  });

  it('grades a training frame good, with a reason, and writes it to the summary CSV', async () => {
    const result = await engine.analyse(FRAME);
    expect(result.quality?.grade, JSON.stringify(result.quality)).toBe('good');
    expect(result.quality?.reason).toMatch(/\.$/);
    expect(result.quality?.signals.sizeRatio).toBeGreaterThan(0.8);
    expect(qualityCell(result)).toBe('good');
  }, 120_000);

  it('says bees look larger where they are 3x the size the model learnt', async () => {
    const window = path.join(dir, 'window.jpg');
    await runFfmpeg(['-y', '-i', FRAME, '-vf', 'crop=1280:360:1100:300', '-q:v', '2', window]);
    const result = await engine.analyse(window);
    // The shipped card's auto-zoom never zooms out (`input.auto_zoom.min` 1).
    expect(result.zoom).toBe(1);
    expect(result.quality?.grade, JSON.stringify(result.quality)).toBe('poor');
    expect(result.quality?.reason).toBe(
      'Bees look far larger than in our training footage; counts are likely off.',
    );
    expect(qualityCell(result)).toBe('poor');
  }, 120_000);

  it('grades a blurred frame below good', async () => {
    const blurred = path.join(dir, 'blurred.jpg');
    await runFfmpeg(['-y', '-i', FRAME, '-vf', 'gblur=sigma=16', '-q:v', '2', blurred]);
    const result = await engine.analyse(blurred);
    expect(result.quality?.signals.sharpness).toBeLessThan(QUALITY_THRESHOLDS.sharpness.uncertain);
    expect(result.quality?.grade, JSON.stringify(result.quality)).not.toBe('good');
  }, 120_000);
});

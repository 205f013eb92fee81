/**
 * Video analysis through the public engine API, with the real model and ffmpeg, on a real hive
 * frame from ../shared/datasets (skips with a message when it is absent), looped into a short
 * H.264 clip: every sampled frame must be detected as the photo itself is, up to what the video
 * codec changes in the pixels; the still scene's unique insects must be the ones a frame shows;
 * and on consecutive real frames no type's unique count is below what one frame shows of it
 * (issue 57).
 */
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createEngine,
  DEFAULT_LIMITS,
  PRODUCT_CLASSES,
  resolveMediaTools,
} from '../../engine/index.ts';
import type { Detection, Engine } from '../../engine/index.ts';
import { iou } from '../../engine/index.ts';
import { runFfmpeg } from '../../fixtures/index.ts';
import { cachedFrameClip } from '../support/clip-cache.ts';
import { HIVE_FRAME, HIVE_VAL_FRAMES, hiveFramePresent } from '../support/hive-frame.ts';

const FRAME = HIVE_FRAME;

const present = hiveFramePresent('video analysis');

/** Share of `reference`'s detections that `other` has too: same class, IoU at least 0.5. */
function agreement(reference: readonly Detection[], other: readonly Detection[]): number {
  const found = reference.filter((r) =>
    other.some((o) => o.cls === r.cls && iou(o.box, r.box) >= 0.5),
  );
  return found.length / Math.max(1, reference.length);
}

function counts(detections: readonly Detection[]): number[] {
  return PRODUCT_CLASSES.map((c) => detections.filter((d) => d.cls === c).length);
}

describe.skipIf(!present)('video analysis on a hive frame', () => {
  let dir: string;
  let engine: Engine;
  let clip: string;

  beforeAll(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'hivesight-video-'));
    engine = await createEngine({ threads: 2 });
    clip = path.join(dir, 'loop.mp4');
    await runFfmpeg([
      '-y', '-loop', '1', '-framerate', '5', '-t', '2', '-i', FRAME,
      '-c:v', 'libx264', '-pix_fmt', 'yuv420p', '-crf', '18', clip,
    ]); // prettier-ignore
  }, 120_000);

  afterAll(async () => {
    await engine?.detector.close();
    if (dir) await fs.rm(dir, { recursive: true, force: true });
  });

  it('detects every sampled frame as the picture itself is detected', async () => {
    const photo = (await engine.analyse(FRAME)).frames[0]!.detections;
    const video = await engine.analyse(clip);
    expect(video.frames).toHaveLength(10);
    expect(photo.length).toBeGreaterThan(10);
    for (const frame of video.frames) {
      expect(agreement(photo, frame.detections)).toBeGreaterThanOrEqual(0.9);
      const diff = counts(frame.detections).map((n, i) => Math.abs(n - counts(photo)[i]!));
      expect(Math.max(...diff)).toBeLessThanOrEqual(1);
    }
  }, 120_000);

  it('counts each insect of a still scene once', async () => {
    const result = await engine.analyse(clip);
    const shown = result.frames[0]!.counts;
    const honeybees = (c: typeof shown) => (c.bee ?? 0) + (c.pollen ?? 0) + (c.drone ?? 0);
    // Nothing moves: every honeybee a frame shows is one insect, resting bees included.
    expect(honeybees(shown)).toBeGreaterThan(10);
    expect(Math.abs(honeybees(result.counts) - honeybees(shown))).toBeLessThanOrEqual(1);
    expect(result.counts.bee).toBeGreaterThan(0);
  }, 120_000);

  it('never counts fewer unique insects of a type than one frame shows of it', async () => {
    // 15 consecutive validation frames of the hive clip: bees walk, types flicker between frames.
    const clip = await cachedFrameClip(
      HIVE_VAL_FRAMES.slice(0, 15),
      { tools: resolveMediaTools(), limits: { ...DEFAULT_LIMITS, timeoutMs: 600_000 } },
      { fps: 5 },
    );
    const result = await engine.analyse(clip.file);
    expect(result.frames).toHaveLength(15);
    for (const cls of PRODUCT_CLASSES) {
      const peak = Math.max(...result.frames.map((f) => f.counts[cls] ?? 0));
      if (result.counts[cls] === null) continue;
      expect(result.counts[cls], cls).toBeGreaterThanOrEqual(peak);
    }
  }, 600_000);
});

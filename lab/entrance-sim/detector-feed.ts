/**
 * The real feed: a clip's sampled frames rendered on the camera's scene (`renderFrame`), encoded
 * as an H.264 clip at the sample rate and analysed by the engine as the product analyses a video
 * (auto-zoom, the detector, its display thresholds); each analysed frame's detections are the
 * feed. Costly: a few short clips by default.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Engine } from '../../engine/index.ts';
import type { Detection } from '../../engine/types.ts';
import { encodeFrameClip } from '../video.ts';
import type { Scene } from './render.ts';
import { renderFrame } from './render.ts';
import { beesAt, sampledFrames } from './simulate.ts';
import type { Simulation } from './simulate.ts';

export async function detectorDetections(
  sim: Simulation,
  fps: number,
  scene: Scene,
  engine: Engine,
): Promise<Detection[][]> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'hivesight-entrance-sim-'));
  try {
    const images: string[] = [];
    for (const [k, frame] of sampledFrames(sim, fps).entries()) {
      const file = path.join(dir, `s${String(k).padStart(5, '0')}.jpg`);
      await writeFile(file, await renderFrame(scene, beesAt(sim, frame)));
      images.push(file);
    }
    const clip = await encodeFrameClip(images, engine, { fps, tmpRoot: dir });
    const result = await engine.analyse(clip.file, { sampleFps: fps });
    const frames = result.frames.map((f) => f.detections);
    if (frames.length !== images.length) {
      throw new Error(`the engine analysed ${frames.length} of ${images.length} frames`);
    }
    return frames;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

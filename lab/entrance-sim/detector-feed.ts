/**
 * The real feed: a clip's sampled frames rendered on the camera's scene (`renderFrame`), encoded
 * as an H.264 clip at the sample rate and analysed by the engine as the product analyses a video
 * (auto-zoom, the detector, its display thresholds); each analysed frame's detections are the
 * feed. Costly: a few short clips by default. `productTraffic` is the product's own count on
 * such a clip, with the camera's entrance set.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Engine } from '../../engine/index.ts';
import { performance } from 'node:perf_hooks';
import type { Detection, Traffic } from '../../engine/types.ts';
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
  return withClip(sim, fps, scene, engine, async (file, count) => {
    const result = await engine.analyse(file, { sampleFps: fps });
    const frames = result.frames.map((f) => f.detections);
    if (frames.length !== count) {
      throw new Error(`the engine analysed ${frames.length} of ${count} frames`);
    }
    return frames;
  });
}

/**
 * The engine's own count: the clip rendered and encoded at `fps` and analysed as the product
 * analyses a video with an entrance (the camera's), at the default sample rate, with the entrance
 * rate (`AnalyseOptions.entranceFps`) asked at `fps`: a 10 fps clip has its traffic tracked at
 * 10 fps on entrance crops between the 5 fps frames, a 5 fps one at 5 fps.
 */
export async function productTraffic(
  sim: Simulation,
  fps: number,
  scene: Scene,
  engine: Engine,
): Promise<{ traffic: Traffic; analysisS: number }> {
  return withClip(sim, fps, scene, engine, async (file) => {
    const t0 = performance.now();
    const result = await engine.analyse(file, { entrance: sim.camera.entrance, entranceFps: fps });
    if (!result.traffic) throw new Error('the engine counted no traffic');
    return { traffic: result.traffic, analysisS: (performance.now() - t0) / 1000 };
  });
}

/** `run` on the clip of `sim` rendered and encoded at `fps`, removed afterwards. */
async function withClip<T>(
  sim: Simulation,
  fps: number,
  scene: Scene,
  engine: Engine,
  run: (file: string, frames: number) => Promise<T>,
): Promise<T> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'hivesight-entrance-sim-'));
  try {
    const images: string[] = [];
    for (const [k, frame] of sampledFrames(sim, fps).entries()) {
      const file = path.join(dir, `s${String(k).padStart(5, '0')}.jpg`);
      await writeFile(file, await renderFrame(scene, beesAt(sim, frame)));
      images.push(file);
    }
    const clip = await encodeFrameClip(images, engine, { fps, tmpRoot: dir });
    return await run(clip.file, images.length);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

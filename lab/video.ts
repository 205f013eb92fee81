/**
 * Labelled frames of one recording scored as a video: encoded in their order into an H.264 MP4
 * at `fps` (so that sampling at the same rate takes each frame once), read back as
 * `analyseFile` reads a video (`readFrames` at the detector's input size), and each frame
 * detected at eval's low score floor (for the AP curve). The frames' labels then score it as
 * `hivesight eval` scores photos.
 */
import { mkdtemp, rm, symlink } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { CorruptMediaError } from '../engine/errors.ts';
import { readFrames } from '../engine/media/frames.ts';
import type { MediaLimits } from '../engine/media/limits.ts';
import { probeMedia } from '../engine/media/probe.ts';
import { runTool, stderrTail } from '../engine/media/run-tool.ts';
import type { MediaTools } from '../engine/media/tools.ts';
import type { MediaInfo } from '../engine/types.ts';
import type { EvalDetector, PredictedImage } from '../engine/eval/predict.ts';
import { EVAL_SCORE_THRESHOLD } from '../engine/eval/predict.ts';

export interface FrameClip {
  file: string;
  media: MediaInfo;
  fps: number;
  /** Removes the clip's temporary folder. */
  remove(): Promise<void>;
}

/** `images` (one recording's frames, in order) as an H.264 MP4 in a temporary folder. */
export async function encodeFrameClip(
  images: readonly string[],
  deps: { tools: MediaTools; limits: MediaLimits },
  options: { fps?: number; crf?: number; tmpRoot?: string } = {},
): Promise<FrameClip> {
  const fps = options.fps ?? 5;
  const dir = await mkdtemp(path.join(options.tmpRoot ?? os.tmpdir(), 'hivesight-frame-clip-'));
  const remove = () => rm(dir, { recursive: true, force: true });
  try {
    for (const [i, image] of images.entries()) {
      await symlink(path.resolve(image), path.join(dir, `f${String(i).padStart(5, '0')}.jpg`));
    }
    const file = path.join(dir, 'clip.mp4');
    const run = await runTool(deps.tools.ffmpeg, [
      '-v', 'error', '-nostdin', '-framerate', String(fps), '-i', path.join(dir, 'f%05d.jpg'),
      '-c:v', 'libx264', '-crf', String(options.crf ?? 18), '-pix_fmt', 'yuv420p', file,
    ], { timeoutMs: deps.limits.timeoutMs, maxStdoutBytes: 64 * 1024 }); // prettier-ignore
    if (run.code !== 0) {
      throw new CorruptMediaError('The frames could not be encoded into a clip.', {
        cause: new Error(stderrTail(run.stderr)),
      });
    }
    const media = await probeMedia(file, deps);
    // ffmpeg ends a numbered sequence at its first missing picture, and exits 0.
    const held = Math.round(media.durationS * fps);
    if (held !== images.length) {
      throw new CorruptMediaError(
        `The clip holds ${held} of the ${images.length} frames: one could not be read.`,
      );
    }
    return { file, media, fps, remove };
  } catch (error) {
    await remove();
    throw error;
  }
}

/** Each sampled frame's detections at eval's floor, in frame order. */
export async function predictClipFrames(
  clip: FrameClip,
  deps: { detector: EvalDetector; tools: MediaTools; limits: MediaLimits },
  options: { zoom?: number } = {},
): Promise<PredictedImage[]> {
  const { media, fps } = clip;
  const { detector, tools, limits } = deps;
  const zoom = options.zoom ?? 1;
  const size = detector.inputSizeFor(media.width, media.height, zoom);
  const predicted: PredictedImage[] = [];
  for await (const frame of readFrames(clip.file, media, {
    tools,
    limits,
    sampleFps: fps,
    ...size,
  })) {
    const detections = await detector.detect(frame, media.width, media.height, {
      scoreThreshold: EVAL_SCORE_THRESHOLD,
    });
    predicted.push({ detections, width: media.width, height: media.height, zoom });
  }
  // readFrames has refused a clip that yields no frame.
  return predicted;
}

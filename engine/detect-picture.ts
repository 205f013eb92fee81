/**
 * One picture through the detector: decoded at the detector's input size and detected. Shared
 * by `analyseFile` and eval, so both run the production path.
 */
import { performance } from 'node:perf_hooks';
import { readPicture } from './media/frames.ts';
import type { MediaLimits } from './media/limits.ts';
import type { MediaTools } from './media/tools.ts';
import type { Detection, MediaInfo, RawFrame } from './types.ts';

/** What a picture pass needs of the detector (the engine's `Detector` satisfies it). */
export interface PictureDetector {
  inputSizeFor(sourceWidth: number, sourceHeight: number): { width: number; height: number };
  detect(
    frame: RawFrame,
    sourceWidth: number,
    sourceHeight: number,
    options?: { scoreThreshold?: number },
  ): Promise<Detection[]>;
}

export interface PictureResult {
  /** The frame the detections come from. */
  frame: RawFrame;
  detections: Detection[];
  decodeMs: number;
  inferenceMs: number;
}

export async function detectPicture(
  file: string,
  media: MediaInfo,
  deps: { detector: PictureDetector; tools: MediaTools; limits: MediaLimits },
  options: { scoreThreshold?: number; signal?: AbortSignal } = {},
): Promise<PictureResult> {
  const { detector, tools, limits } = deps;
  const { signal, scoreThreshold } = options;
  const t0 = performance.now();
  const frame = await readPicture(file, media, {
    tools,
    limits,
    ...detector.inputSizeFor(media.width, media.height),
    ...(signal ? { signal } : {}),
  });
  const t1 = performance.now();
  const detections = await detector.detect(
    frame,
    media.width,
    media.height,
    scoreThreshold === undefined ? {} : { scoreThreshold },
  );
  return { frame, detections, decodeMs: t1 - t0, inferenceMs: performance.now() - t1 };
}

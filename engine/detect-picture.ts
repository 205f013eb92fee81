/**
 * One picture through the detector, with auto-zoom (`detection/zoom.ts`): decoded at the
 * detector's usual size and detected; where its honeybees are clearly off the size the detector
 * learnt, decoded and detected once more at the zoom that brings them back. Shared by
 * `analyseFile` and eval, so both run the production path.
 */
import { performance } from 'node:perf_hooks';
import { readPicture } from './media/frames.ts';
import type { MediaLimits } from './media/limits.ts';
import type { MediaTools } from './media/tools.ts';
import type { Detection, MediaInfo, ProductClass, RawFrame } from './types.ts';

/** What a picture pass needs of the detector (the engine's `Detector` satisfies it). */
export interface PictureDetector {
  inputSizeFor(
    sourceWidth: number,
    sourceHeight: number,
    zoom?: number,
  ): { width: number; height: number };
  zoomFor(
    detections: readonly Detection[],
    frameWidth: number,
    sourceWidth: number,
    sourceHeight: number,
  ): number | undefined;
  detect(
    frame: RawFrame,
    sourceWidth: number,
    sourceHeight: number,
    options?: { scoreThreshold?: number; thresholds?: Partial<Record<ProductClass, number>> },
  ): Promise<Detection[]>;
}

export interface PictureResult {
  /** The frame the detections come from (at `zoom`). */
  frame: RawFrame;
  detections: Detection[];
  /** 1, or the zoom the picture was detected again at. */
  zoom: number;
  decodeMs: number;
  inferenceMs: number;
}

export interface PictureOptions {
  /** Replaces every class's score threshold (eval's low one for the AP curve). */
  scoreThreshold?: number;
  /** Per-class thresholds over the card's (a location's calibration). */
  thresholds?: Partial<Record<ProductClass, number>>;
  /** Decode at this zoom, once, instead of judging one (a location's calibration). */
  zoom?: number;
  signal?: AbortSignal;
}

export async function detectPicture(
  file: string,
  media: MediaInfo,
  deps: { detector: PictureDetector; tools: MediaTools; limits: MediaLimits },
  options: PictureOptions = {},
): Promise<PictureResult> {
  const { detector, tools, limits } = deps;
  const { signal, scoreThreshold, thresholds } = options;
  let decodeMs = 0;
  let inferenceMs = 0;
  const pass = async (zoom: number): Promise<{ frame: RawFrame; detections: Detection[] }> => {
    const t0 = performance.now();
    const size = detector.inputSizeFor(media.width, media.height, zoom);
    const frame = await readPicture(file, media, {
      tools,
      limits,
      ...size,
      ...(signal ? { signal } : {}),
    });
    const t1 = performance.now();
    const detections = await detector.detect(frame, media.width, media.height, {
      ...(scoreThreshold === undefined ? {} : { scoreThreshold }),
      ...(thresholds ? { thresholds } : {}),
    });
    decodeMs += t1 - t0;
    inferenceMs += performance.now() - t1;
    return { frame, detections };
  };
  if (options.zoom !== undefined) {
    const fixed = await pass(options.zoom);
    return { ...fixed, zoom: options.zoom, decodeMs, inferenceMs };
  }
  const first = await pass(1);
  const zoom =
    detector.zoomFor(first.detections, first.frame.width, media.width, media.height) ?? 1;
  const result = zoom === 1 ? first : await pass(zoom);
  return { ...result, zoom, decodeMs, inferenceMs };
}

/**
 * Runs the production path on one evaluation image: the same probe, decode (ffmpeg, scaled to
 * the detector's input size, auto-zoom included) and detector as `analyseFile`, but with a low
 * score threshold so that the AP curve sees the low-confidence tail too.
 */
import { probeMedia } from '../media/probe.ts';
import { detectPicture } from '../detect-picture.ts';
import type { PictureDetector } from '../detect-picture.ts';
import type { MediaLimits } from '../media/limits.ts';
import type { MediaTools } from '../media/tools.ts';
import type { Detection, ModelIdentity } from '../types.ts';
import type { Prediction } from './metrics.ts';

/** What eval needs of the detector (the engine's `Detector` satisfies it). */
export interface EvalDetector extends PictureDetector {
  readonly identity: ModelIdentity;
}

export interface PredictedImage {
  detections: Detection[];
  width: number;
  height: number;
  /** 1, or the zoom auto-zoom detected the image again at. */
  zoom: number;
}

export type EvalPredictor = (imagePath: string, signal?: AbortSignal) => Promise<PredictedImage>;

/** Score threshold for the AP curve: low, so the curve reaches the model's full recall. */
export const EVAL_SCORE_THRESHOLD = 0.01;

export function createEvalPredictor(
  deps: { detector: EvalDetector; tools: MediaTools; limits: MediaLimits },
  options: { scoreThreshold?: number; zoom?: number } = {},
): EvalPredictor {
  const { tools, limits } = deps;
  const scoreThreshold = options.scoreThreshold ?? EVAL_SCORE_THRESHOLD;
  return async (imagePath, signal) => {
    const media = await probeMedia(imagePath, { tools, limits });
    const { detections, zoom } = await detectPicture(imagePath, media, deps, {
      scoreThreshold,
      ...(options.zoom === undefined ? {} : { zoom: options.zoom }),
      ...(signal ? { signal } : {}),
    });
    return { detections, width: media.width, height: media.height, zoom };
  };
}

/** Detections in source pixels -> normalised boxes, like the YOLO labels. */
export function normalisedPredictions(predicted: PredictedImage): Prediction[] {
  const { width, height } = predicted;
  return predicted.detections.map((d) => ({
    cls: d.cls,
    score: d.score,
    box: {
      x: d.box.x / width,
      y: d.box.y / height,
      width: d.box.width / width,
      height: d.box.height / height,
    },
  }));
}

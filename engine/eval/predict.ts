/**
 * Runs the production path on one evaluation image: the same probe, decode (ffmpeg, scaled to
 * the detector's input size) and detector as `analyseFile`, but with a low score threshold so
 * that the AP curve sees the low-confidence tail too.
 */
import { probeMedia } from '../media/probe.ts';
import { readFrames } from '../media/frames.ts';
import { readDetailFrame } from '../detail-frame.ts';
import type { DetailSizer } from '../detail-frame.ts';
import type { MediaLimits } from '../media/limits.ts';
import type { MediaTools } from '../media/tools.ts';
import type { Detection, MediaKind, ModelIdentity, RawFrame } from '../types.ts';

/** What eval needs of the detector (the engine's `Detector` satisfies it). */
export interface EvalDetector extends DetailSizer {
  readonly identity: ModelIdentity;
  inputSizeFor(sourceWidth: number, sourceHeight: number): { width: number; height: number };
  detect(
    frame: RawFrame,
    sourceWidth: number,
    sourceHeight: number,
    options?: { scoreThreshold?: number; media?: MediaKind; detailFrame?: RawFrame },
  ): Promise<Detection[]>;
}

export interface PredictedImage {
  detections: Detection[];
  width: number;
  height: number;
}

export type EvalPredictor = (imagePath: string, signal?: AbortSignal) => Promise<PredictedImage>;

/** Score threshold for the AP curve: low, so the curve reaches the model's full recall. */
export const EVAL_SCORE_THRESHOLD = 0.01;

export function createEvalPredictor(
  deps: { detector: EvalDetector; tools: MediaTools; limits: MediaLimits },
  options: { scoreThreshold?: number } = {},
): EvalPredictor {
  const { detector, tools, limits } = deps;
  const scoreThreshold = options.scoreThreshold ?? EVAL_SCORE_THRESHOLD;
  return async (imagePath, signal) => {
    const media = await probeMedia(imagePath, { tools, limits });
    const size = detector.inputSizeFor(media.width, media.height);
    const detailFrame = await readDetailFrame(imagePath, media, deps, signal);
    const detections: Detection[] = [];
    for await (const frame of readFrames(imagePath, media, {
      tools,
      limits,
      sampleFps: 1,
      width: size.width,
      height: size.height,
      signal,
    })) {
      detections.push(
        ...(await detector.detect(frame, media.width, media.height, {
          scoreThreshold,
          media: media.kind,
          ...(detailFrame ? { detailFrame } : {}),
        })),
      );
    }
    return { detections, width: media.width, height: media.height };
  };
}

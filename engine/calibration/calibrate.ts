/**
 * A calibration fitted on corrected stills through the product's own picture path: each still
 * detected once as the product does it (auto-zoom, the card's thresholds' tail kept down to
 * RAW_SCORE_THRESHOLD), then at every zoom the fit asks for; `fitCalibration` does the rest.
 * Runs in the server's worker (never in a request) and in the protocol.
 */
import { createEvalPredictor } from '../eval/predict.ts';
import type { EvalDetector, PredictedImage } from '../eval/predict.ts';
import type { Detector } from '../detection/detector.ts';
import type { MediaLimits } from '../media/limits.ts';
import type { MediaTools } from '../media/tools.ts';
import type { Box, ProductClass } from '../types.ts';
import { CALIBRATION_VERSION } from './calibration.ts';
import type { Calibration } from './calibration.ts';
import { fitCalibration, zoomsToDetect } from './fit.ts';
import type { CalibrationFit, CalibrationFrame } from './fit.ts';

/** The lowest score kept for fitting: below every threshold the fit may choose. */
export const RAW_SCORE_THRESHOLD = 0.05;

export interface CorrectedStill {
  /** The still's path (a JPEG or PNG at the source's size). */
  path: string;
  /** The file it is a still of. */
  file: string;
  /** The corrected boxes, in the still's pixels. */
  truth: ReadonlyArray<{ cls: ProductClass; box: Box }>;
}

export async function calibrateStills(
  deps: { detector: Detector & EvalDetector; tools: MediaTools; limits: MediaLimits },
  stills: readonly CorrectedStill[],
  meta: { location: string; date: string; signal?: AbortSignal },
): Promise<{ calibration: Calibration; fit: CalibrationFit }> {
  const { detector } = deps;
  const signal = meta.signal;
  const predictAt = (zoom?: number) =>
    createEvalPredictor(deps, {
      scoreThreshold: RAW_SCORE_THRESHOLD,
      ...(zoom === undefined ? {} : { zoom }),
    });
  const auto = predictAt();
  const uncalibrated: PredictedImage[] = [];
  for (const s of stills) uncalibrated.push(await auto(s.path, signal));
  const frames: CalibrationFrame[] = stills.map((s, i) => {
    const { width, height } = uncalibrated[i]!;
    return {
      file: s.file,
      truth: s.truth,
      inputScale: detector.inputSizeFor(width, height, 1).width / width,
    };
  });
  const autoZoom = detector.card.input.autoZoom;
  const atZoom = new Map<string, PredictedImage>();
  for (const { frame, zoom } of zoomsToDetect(frames, autoZoom)) {
    const first = uncalibrated[frame]!;
    // The product's own pass already is that zoom's.
    const p = first.zoom === zoom ? first : await predictAt(zoom)(stills[frame]!.path, signal);
    atZoom.set(`${frame}:${zoom}`, p);
  }
  const fit = fitCalibration({
    frames,
    card: detector.scoreThresholds(),
    autoZoom,
    uncalibrated: uncalibrated.map((p) => p.detections),
    detectionsAt: (i, zoom) =>
      zoom === null ? uncalibrated[i]!.detections : atZoom.get(`${i}:${zoom}`)!.detections,
  });
  const { name, version } = detector.identity;
  const calibration: Calibration = {
    version: CALIBRATION_VERSION,
    location: meta.location,
    frames: fit.frames,
    files: fit.files,
    date: meta.date,
    model: { name, version },
    zoom: fit.zoom,
    thresholds: fit.thresholds,
    gain: fit.gain,
  };
  return { calibration, fit };
}

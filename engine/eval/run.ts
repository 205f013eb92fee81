/**
 * Evaluates a model on a dataset folder: reads the dataset, asks the predictor (the production
 * decode + detector) for each image, and scores boxes (AP50, P/R, count error) or crops
 * (pollen vs not pollen accuracy).
 */
import path from 'node:path';
import { AnalysisCancelledError } from '../errors.ts';
import type { ProductClass } from '../types.ts';
import { autoZoomNote, summariseZooms } from './auto-zoom.ts';
import type { AutoZoomSummary } from './auto-zoom.ts';
import { readDataset } from './datasets.ts';
import type { BoxDataset, CropDataset } from './datasets.ts';
import {
  bootstrapBoxChanges,
  bootstrapBoxIntervals,
  bootstrapCropChanges,
  bootstrapCropIntervals,
} from './intervals.ts';
import type {
  BoxChanges,
  BoxIntervals,
  CropChanges,
  CropIntervals,
  IntervalOptions,
} from './intervals.ts';
import { boxErrors, cropErrors } from './errors.ts';
import type { BoxErrors, CropErrors } from './errors.ts';
import { buildLabelMap } from './labels.ts';
import { cropPrediction, evaluateBoxes, evaluateCrops, shownAt } from './metrics.ts';
import type {
  BoxMetrics,
  CropMetrics,
  CropOutcome,
  ImageEval,
  ScoreThresholds,
} from './metrics.ts';
import { normalisedPredictions } from './predict.ts';
import type { EvalPredictor, PredictedImage } from './predict.ts';

export interface EvalOptions {
  predict: EvalPredictor;
  /** The model's own thresholds (from its card): precision, recall and counts use these. */
  thresholds: ScoreThresholds;
  /** Classes the model can detect. */
  modelClasses: readonly ProductClass[];
  /** Extra `LABEL: CLASS` mappings on top of the built-in names. */
  labelMappings?: Readonly<Record<string, string>>;
  /** Also bootstrap intervals for the figures (see intervals.ts). */
  intervals?: IntervalOptions;
  /** A second model scored on the same images: the report adds its figures and the changes. */
  baseline?: BaselineModel;
  /** Also break the model's errors down by kind (see errors.ts). */
  errors?: boolean;
  /** Images predicted so far, of all to predict (twice the images with a baseline). */
  onProgress?: (done: number, total: number) => void;
  signal?: AbortSignal;
}

export interface BaselineModel {
  predict: EvalPredictor;
  thresholds: ScoreThresholds;
  modelClasses: readonly ProductClass[];
}

export type BoxEvalReport = {
  kind: 'boxes';
  dataset: string;
  /** The model's images auto-zoom detected again (the baseline's are not summarised). */
  auto_zoom: AutoZoomSummary;
  intervals?: BoxIntervals;
  baseline?: BoxMetrics & { change: BoxChanges };
  errors?: BoxErrors;
} & BoxMetrics;
export type CropEvalReport = {
  kind: 'crops';
  dataset: string;
  auto_zoom: AutoZoomSummary;
  intervals?: CropIntervals;
  baseline?: CropMetrics & { change: CropChanges };
  errors?: CropErrors;
} & CropMetrics;
export type EvalReport = BoxEvalReport | CropEvalReport;

export async function evaluateDataset(root: string, options: EvalOptions): Promise<EvalReport> {
  const dataset = await readDataset(root, buildLabelMap(options.labelMappings));
  return dataset.kind === 'boxes'
    ? evaluateBoxDataset(dataset, options)
    : evaluateCropDataset(dataset, options);
}

/** Predicts every image with the model, then with the baseline if there is one. */
async function predictAll(
  paths: string[],
  options: EvalOptions,
): Promise<{ model: PredictedImage[]; baseline?: PredictedImage[] }> {
  const total = paths.length * (options.baseline ? 2 : 1);
  let done = 0;
  const run = async (predict: EvalPredictor) => {
    const out: PredictedImage[] = [];
    for (const file of paths) {
      if (options.signal?.aborted) {
        throw new AnalysisCancelledError('The evaluation was cancelled.');
      }
      out.push(await predict(file, options.signal));
      options.onProgress?.(++done, total);
    }
    return out;
  };
  const model = await run(options.predict);
  return options.baseline ? { model, baseline: await run(options.baseline.predict) } : { model };
}

/** The auto-zoom summary of the model's predictions, and the notes with its line added. */
function withAutoZoom(
  predicted: readonly PredictedImage[],
  notes: readonly string[],
): { auto_zoom: AutoZoomSummary; notes: string[] } {
  const summary = summariseZooms(predicted.map((p) => p.zoom));
  const note = autoZoomNote(summary, predicted.length);
  return { auto_zoom: summary, notes: note ? [...notes, note] : [...notes] };
}

async function evaluateBoxDataset(
  dataset: BoxDataset,
  options: EvalOptions,
): Promise<BoxEvalReport> {
  const predicted = await predictAll(
    dataset.images.map((im) => im.path),
    options,
  );
  const imagesOf = (model: PredictedImage[]): ImageEval[] =>
    dataset.images.map((im, i) => ({
      gt: im.gt.map(({ cls, box }) => ({ cls, box })),
      predictions: normalisedPredictions(model[i]!),
    }));
  const images = imagesOf(predicted.model);
  const scoring = { thresholds: options.thresholds, modelClasses: options.modelClasses };
  const metrics = evaluateBoxes(images, scoring);
  let baseline: BoxEvalReport['baseline'];
  if (options.baseline && predicted.baseline) {
    const baseImages = imagesOf(predicted.baseline);
    const baseScoring = {
      thresholds: options.baseline.thresholds,
      modelClasses: options.baseline.modelClasses,
    };
    baseline = {
      ...evaluateBoxes(baseImages, baseScoring),
      change: bootstrapBoxChanges(images, baseImages, {
        candidate: scoring,
        baseline: baseScoring,
        ...options.intervals,
      }),
    };
  }
  return {
    kind: 'boxes',
    dataset: dataset.root,
    ...metrics,
    ...withAutoZoom(predicted.model, metrics.notes),
    ...(options.intervals && {
      intervals: bootstrapBoxIntervals(images, { ...scoring, ...options.intervals }),
    }),
    ...(baseline && { baseline }),
    ...(options.errors && {
      errors: boxErrors(images, {
        ...scoring,
        names: dataset.images.map((im) => path.relative(dataset.root, im.path)),
      }),
    }),
  };
}

async function evaluateCropDataset(
  dataset: CropDataset,
  options: EvalOptions,
): Promise<CropEvalReport> {
  const predicted = await predictAll(
    dataset.images.map((im) => im.path),
    options,
  );
  const outcomesOf = (model: PredictedImage[], thresholds: ScoreThresholds): CropOutcome[] =>
    dataset.images.map((im, i) => ({
      truth: im.truth,
      // What the product would show: only detections at the model's own thresholds.
      predicted: cropPrediction(normalisedPredictions(model[i]!).filter(shownAt(thresholds))),
    }));
  const outcomes = outcomesOf(predicted.model, options.thresholds);
  let baseline: CropEvalReport['baseline'];
  if (options.baseline && predicted.baseline) {
    const baseOutcomes = outcomesOf(predicted.baseline, options.baseline.thresholds);
    baseline = {
      ...evaluateCrops(baseOutcomes),
      change: bootstrapCropChanges(outcomes, baseOutcomes, options.intervals),
    };
  }
  const metrics = evaluateCrops(outcomes);
  return {
    kind: 'crops',
    dataset: dataset.root,
    ...metrics,
    ...withAutoZoom(predicted.model, metrics.notes),
    ...(options.intervals && { intervals: bootstrapCropIntervals(outcomes, options.intervals) }),
    ...(baseline && { baseline }),
    ...(options.errors && { errors: cropErrors(outcomes) }),
  };
}

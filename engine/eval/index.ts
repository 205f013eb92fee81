/**
 * Model evaluation on labelled datasets: what `hivesight eval` and the accuracy tests need. The
 * modules' other parts are the engine's own; the research harness is in lab/.
 */
export { buildLabelMap, parseLabelMappings } from './labels.ts';
export { readDataset } from './datasets.ts';
export type { BoxDataset, LabelledBox } from './datasets.ts';
export { evaluateBoxes, countErrorPct } from './metrics.ts';
export type { ScoreThresholds } from './metrics.ts';
export type { BoxErrors, CropErrors } from './errors.ts';
export type { Change, Interval } from './intervals.ts';
export { createEvalPredictor, EVAL_SCORE_THRESHOLD, normalisedPredictions } from './predict.ts';
export type { EvalDetector, PredictedImage } from './predict.ts';
export { evaluateDataset } from './run.ts';
export type { EvalReport } from './run.ts';

/** Model evaluation on labelled datasets (`hivesight eval`). */
export { buildLabelMap, parseLabelMappings, mapLabel, isEvalClass } from './labels.ts';
export type { EvalClass, LabelMap } from './labels.ts';
export { readDataset, parseYoloLabels, parseYamlNames } from './datasets.ts';
export type { Dataset, BoxDataset, CropDataset, LabelledBox } from './datasets.ts';
export {
  matchClass,
  averagePrecision,
  evaluateBoxes,
  countErrorPct,
  evaluateCrops,
  cropPrediction,
  thresholdFor,
  IOU_THRESHOLD,
} from './metrics.ts';
export type {
  ClassMetrics,
  BoxMetrics,
  CropMetrics,
  CropClass,
  CropOutcome,
  GroundTruth,
  ImageEval,
  Prediction,
  ScoreThresholds,
} from './metrics.ts';
export { boxErrors, cropErrors, POOR_BOX_IOU, WORST_IMAGES } from './errors.ts';
export type {
  BoxErrors,
  CropErrors,
  CountBias,
  DetectionOutcomes,
  ImageErrors,
  LabelOutcomes,
} from './errors.ts';
export {
  bootstrapBoxChanges,
  bootstrapBoxIntervals,
  bootstrapCropChanges,
  bootstrapCropIntervals,
} from './intervals.ts';
export type {
  BoxChanges,
  BoxScoring,
  Change,
  CropChanges,
  BoxIntervals,
  CropIntervals,
  Interval,
  IntervalOptions,
  IntervalSettings,
} from './intervals.ts';
export { createEvalPredictor, EVAL_SCORE_THRESHOLD, normalisedPredictions } from './predict.ts';
export type { EvalDetector, EvalPredictor, PredictedImage } from './predict.ts';
export { evaluateDataset } from './run.ts';
export { encodeFrameClip, predictClipFrames } from './video.ts';
export type { FrameClip } from './video.ts';
export {
  encodePanClip,
  panLabels,
  panOffset,
  panOffsets,
  scorePanTracks,
  summarisePan,
  PAN_SPEED,
  PAN_TYPES,
  PAN_WINDOW,
} from './pan.ts';
export type { PanLabel, PanOutcome, PanSettings, PanSummary, PanType } from './pan.ts';
export { summariseZooms, autoZoomNote } from './auto-zoom.ts';
export type { AutoZoomSummary } from './auto-zoom.ts';
export type {
  BaselineModel,
  EvalOptions,
  EvalReport,
  BoxEvalReport,
  CropEvalReport,
} from './run.ts';
export {
  centreDistance,
  consecutiveRuns,
  frameNumber,
  labelledSequences,
  linkIdentities,
  maxWeightMatching,
  scoreTracking,
  totalScore,
  trackLabelledBoxes,
  trackObjects,
} from './track-metrics.ts';
export type {
  FrameObjects,
  LabelledSequence,
  LinkOptions,
  TrackingScore,
} from './track-metrics.ts';

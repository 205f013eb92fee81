/** The quality grade of a result: signals, their bounds and the grade with its reason. */
export { frameLook } from './frame-look.ts';
export type { FrameLook } from './frame-look.ts';
export {
  gradeQuality,
  gradeValue,
  qualitySignals,
  SHORT_TRACK_S,
  WEAK_SCORE_FACTOR,
} from './grade.ts';
export type { QualityInputs } from './grade.ts';
export { QUALITY_MIN_HONEYBEES, QUALITY_THRESHOLDS } from './thresholds.ts';
export type { QualityBound, QualityThresholds } from './thresholds.ts';

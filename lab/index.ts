/**
 * The research harness: pan clips across labelled frames, the tracker check against labelled
 * identities, and labelled frames encoded as clips. Tests and benchmarks use it; the product
 * (engine, server, CLI, console) never imports it, and `hivesight eval` does not need it.
 */
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
export { scoreHota } from './hota.ts';
export type { HotaScore } from './hota.ts';
export { maxWeightAssignment } from '../engine/tracking/assignment.ts';
export type {
  FrameObjects,
  LabelledSequence,
  LinkOptions,
  TrackingScore,
} from './track-metrics.ts';
export { handCountedRuns, HAND_COUNTED_DIR, HAND_COUNTED_FPS, HIVE_FRAME } from './hand-counted.ts';
export type { HandCountedRun } from './hand-counted.ts';

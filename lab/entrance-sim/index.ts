/**
 * The synthetic entrance benchmark's parts (issue 56): two real cameras, simulated bees with
 * exact identities and crossings, a noise feed fitted to the detector and a rendered one for the
 * real detector, and the scoring of one clip.
 */
export { CAMERAS } from './cameras.ts';
export type { CameraName, EntranceCamera } from './cameras.ts';
export {
  beesAt,
  DEFAULT_RATES,
  LOOP_MAX_S,
  RENDER_FPS,
  sampledFrames,
  simulate,
} from './simulate.ts';
export type {
  BeeState,
  Behaviour,
  BehaviourRates,
  SimBee,
  SimSettings,
  Simulation,
  TrueCrossing,
} from './simulate.ts';
export { FITTED_NOISE, NoiseFeed, noiseFeed, PERFECT_NOISE } from './noise.ts';
export type { NoiseModel } from './noise.ts';
export { loadScene, renderFrame } from './render.ts';
export type { Scene } from './render.ts';
export { detectorDetections, productTraffic } from './detector-feed.ts';
export {
  countErrorOf,
  precisionOf,
  recallOf,
  scoreClip,
  scoreSimCrossings,
  sumCrossings,
  trackWithTracker,
} from './score.ts';
export type { ClipScore, CrossingScores, DirectionScore, Feed } from './score.ts';
export { VARIANTS } from './variants.ts';
export type { Variant } from './variants.ts';

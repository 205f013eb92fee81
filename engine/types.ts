/**
 * The engine's own vocabulary. Everything a tool (ffmpeg, onnxruntime) produces is turned into
 * these types by an adapter, and everything downstream (tracking, reports, the server) only
 * accepts these types.
 */

/** The product's classes, in report order (decisions.md section 2). */
export const PRODUCT_CLASSES = ['bee', 'pollen', 'drone', 'wasp', 'hornet'] as const;
export type ProductClass = (typeof PRODUCT_CLASSES)[number];

/** Honeybee classes: the ones that count towards coverage, pollen and drone shares. */
export const HONEYBEE_CLASSES: readonly ProductClass[] = ['bee', 'pollen', 'drone'];

export function isProductClass(value: unknown): value is ProductClass {
  return typeof value === 'string' && (PRODUCT_CLASSES as readonly string[]).includes(value);
}

/** Axis-aligned box in source-frame pixels (not model-input pixels). */
export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** One detected insect in one frame. Made only through `makeDetection`, which validates it. */
export interface Detection {
  readonly cls: ProductClass;
  readonly score: number;
  readonly box: Box;
}

/** Per-class counts. `null` means the loaded model cannot detect that class ("not available"). */
export type ClassCounts = Record<ProductClass, number | null>;

export type MediaKind = 'image' | 'video';

/** What the media probe learned about a file, from its content, never its name. */
export interface MediaInfo {
  kind: MediaKind;
  /** The container or image format we verified and will name to ffmpeg (e.g. 'mov', 'avi', 'png'). */
  format: 'mp4' | 'avi' | 'jpeg' | 'png';
  width: number;
  height: number;
  /** Seconds; 0 for an image. */
  durationS: number;
  /** Native frame rate; 0 for an image. */
  fps: number;
  sizeBytes: number;
  /** A video container's creation time (ISO 8601 UTC) when it records a plausible one. */
  recordedAt?: string;
}

/** One decoded frame, RGB24, tightly packed rows. */
export interface RawFrame {
  /** Index of the analysed (sampled) frame, from 0. */
  index: number;
  /** Time of the frame in the source, seconds. */
  timeS: number;
  width: number;
  height: number;
  data: Uint8Array;
}

export interface FrameResult {
  index: number;
  timeS: number;
  detections: Detection[];
  /** Detections per class in this frame (null where the model cannot detect the class). */
  counts: ClassCounts;
  /** Share of the frame area covered by honeybee boxes, percent, 0-100. */
  beeCoveragePct: number;
}

export interface Track {
  id: number;
  cls: ProductClass;
  firstFrame: number;
  lastFrame: number;
  /** Number of frames where the track had a matched detection. */
  hits: number;
  /** Box at each hit (with the detection's score), for trails, traffic and MOT files. */
  boxes: { frame: number; box: Box; score?: number }[];
}

/** A point in frame-relative coordinates: 0-1 on both axes, y down, as on screen. */
export type Point = [number, number];

/**
 * A hive entrance, frame-relative: a `line` of two points (the hive on the left walking from the
 * first to the second, as seen on screen) or a `polygon` of three or more.
 */
export interface Entrance {
  kind: 'line' | 'polygon';
  points: Point[];
}

export interface TrafficCounts {
  in: number;
  out: number;
  /** Left the entrance and came back within `loopMaxS` (orientation flights): neither in nor out. */
  loops: number;
}

/** One counted passage: the frame is where the track was first seen on its final side. */
export interface TrafficEvent {
  kind: 'in' | 'out' | 'loop';
  cls: ProductClass;
  frame: number;
  timeS: number;
  /** The tracks joined into this passage (more than one when a track broke at the entrance). */
  trackIds: number[];
}

/**
 * How crowded the entrance was: honeybees detected within a few bee lengths of it per analysed
 * frame (`traffic/density.ts`), the figure the benchmark's precision per density is read at.
 */
export interface EntranceDensity {
  meanNear: number;
  /** On the busiest analysed frame. */
  peakNear: number;
}

/* The synthetic entrance benchmark's figures per density (`traffic/confidence.ts`). */

/** The benchmark's words for its scenes: 5, 15 and 40 bees at once. */
export type Crowding = 'quiet' | 'busy' | 'crowded';

export interface PassageScore {
  precision: number;
  recall: number;
  /** True passages the figures come from. */
  passages: number;
}

/** One density at one sample rate, both cameras' clips pooled. */
export interface ConfidenceBand {
  /** Bees in the benchmark's scene at once. */
  sceneBees: number;
  crowding: Crowding;
  sampleFps: number;
  /** Honeybees its feed showed near the entrance per frame (`entranceDensity`), on average. */
  meanNear: number;
  in: PassageScore;
  out: PassageScore;
}

export interface ConfidenceTable {
  benchmark: string;
  /** `noise`: the detector's errors drawn on the true boxes; `detector`: the real one. */
  feed: 'noise' | 'detector';
  /** The tracker variant (`lab/entrance-sim/variants.ts`; `product` is the shipped one). */
  variant: string;
  /** The day the run wrote it, and the commit it ran on. */
  date: string;
  commit: string;
  cameras: string[];
  clipsPerCamera: number;
  clipSeconds: number;
  bands: ConfidenceBand[];
}

/** Entrance traffic of one video. `beesIn`/`beesOut`/`loops` are honeybees (bee, pollen, drone). */
export interface Traffic {
  entrance: Entrance;
  beesIn: number;
  beesOut: number;
  /** beesIn - beesOut. */
  netFlow: number;
  loops: number;
  /** Per minute of video. */
  inPerMinute: number;
  outPerMinute: number;
  byClass: Partial<Record<ProductClass, TrafficCounts>>;
  events: TrafficEvent[];
  /**
   * The rate the passages were tracked at (frames per second of video): the video's sample rate,
   * or the entrance rate when one was asked for (`AnalyseOptions.entranceFps`); absent for a video
   * counted before the result said it.
   */
  sampleFps?: number;
  /** Set by `analyseFile` from the frames' detections (the count itself sees only tracks). */
  density?: EntranceDensity;
}

export interface ModelIdentity {
  name: string;
  version: string;
  /** Product classes this model can detect. */
  classes: ProductClass[];
  inputWidth: number;
  inputHeight: number;
  /** The card's alert scores per class (`thresholds.alert`), where it names any. */
  alertScores?: Partial<Record<ProductClass, number>>;
}

export interface AnalysisTiming {
  decodeMs: number;
  inferenceMs: number;
  trackingMs: number;
  totalMs: number;
}

/** How far a result can be trusted: footage like the model's training footage, or not. */
export const QUALITY_GRADES = ['good', 'uncertain', 'poor'] as const;
export type QualityGrade = (typeof QUALITY_GRADES)[number];

/**
 * What the quality grade is judged from, each relative to the model (its card's learnt insect
 * size and display thresholds) so that a new detector keeps the same meaning; null where the
 * result has too little to judge by (few honeybees, a picture's tracks).
 */
export interface QualitySignals {
  /** Honeybees' size at the detector's usual scale over the size it learnt (before auto-zoom). */
  sizeRatio: number | null;
  /** The auto-zoom the file was analysed at (1: none). */
  zoom: number;
  /** Mean over shown honeybees of score / their class's display threshold. */
  scoreRatio: number | null;
  /** Share of shown honeybees scored under twice their class's display threshold. */
  weakShare: number | null;
  /** Median over frames of `FrameLook.sharpness` (contrast-normalised Laplacian). */
  sharpness: number | null;
  /** Median over frames of mean luma, 0-1. */
  brightness: number | null;
  /** Median over frames of the share of black or white pixels. */
  clippedShare: number | null;
  /** Videos: share of counted honeybee tracks that lasted under a second (lost and found again). */
  shortTrackShare: number | null;
}

export interface ResultQuality {
  grade: QualityGrade;
  /** One sentence a beekeeper can read: why the grade. */
  reason: string;
  signals: QualitySignals;
}

/** Everything known about one analysed file. */
export interface AnalysisResult {
  file: string;
  media: MediaInfo;
  /** Unique insects per class: detections for a picture, tracks for a video. */
  counts: ClassCounts;
  frames: FrameResult[];
  tracks: Track[];
  /** Mean of per-frame bee coverage, percent. */
  beeCoveragePct: number;
  model: ModelIdentity;
  sampleFps: number;
  /**
   * 1, or the auto-zoom the file was detected at: its honeybees were off the size the detector
   * learnt, so it was decoded at this times the usual input size (`detection/zoom.ts`).
   */
  zoom: number;
  timing: AnalysisTiming;
  analysedAt: string;
  /** Entrance traffic, when an entrance was given (videos only). */
  traffic?: Traffic;
  /** How far the counts can be trusted (`quality/grade.ts`); set by `analyseFile`. */
  quality?: ResultQuality;
  /** The location's calibration the file was analysed with (issue 58), when one was. */
  calibration?: CalibrationNote;
}

export interface AnalysisProgress {
  file: string;
  framesDone: number;
  /** Expected number of analysed frames (estimate from the probe). */
  framesTotal: number;
  elapsedMs: number;
}

/** What an analysis run with a calibration says of it (results, reports, the summary CSV). */
export interface CalibrationNote {
  location: string;
  frames: number;
  date: string;
  /** "Calibrated for Apiary North on 7 corrected frames (2026-12-03)". */
  label: string;
}

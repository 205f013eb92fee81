/**
 * The quality grade of one result (issue 42, item 6): `good`, `uncertain` or `poor`, with one
 * sentence saying why. It is judged from what the analysis already has: the honeybees' size
 * against the size the model learnt, their scores against the display thresholds, how the
 * frames look (`frame-look.ts`) and, for videos, how often tracks broke. Each signal is graded
 * against `QUALITY_THRESHOLDS`; the result takes the worst, and the reason of the first signal
 * at that grade in `CHECKS` order (size first: it is what a beekeeper can change).
 */
import { HONEYBEE_CLASSES } from '../types.ts';
import type {
  Detection,
  MediaKind,
  ProductClass,
  QualityGrade,
  QualitySignals,
  ResultQuality,
  Track,
} from '../types.ts';
import type { FrameLook } from './frame-look.ts';
import { QUALITY_MIN_HONEYBEES, QUALITY_THRESHOLDS } from './thresholds.ts';
import type { QualityBound, QualityThresholds } from './thresholds.ts';

/** A track shorter than this (seconds of video) is counted as a fragment. */
export const SHORT_TRACK_S = 1;
/** Fewest counted honeybee tracks that fragmentation is judged from. */
const MIN_TRACKS = 3;
/** A shown honeybee scored under this times its class's display threshold is weak. */
export const WEAK_SCORE_FACTOR = 2;

export interface QualityInputs {
  kind: MediaKind;
  frames: readonly { detections: readonly Detection[] }[];
  /** How each analysed frame looked (`frameLook`). */
  looks: readonly FrameLook[];
  /** A video's counted tracks (none for a picture). */
  tracks: readonly Track[];
  sampleFps: number;
  zoom: number;
  /** Honeybees' size at the detector's usual scale over its learnt size (`insectSize`), or null. */
  sizeRatio: number | null;
  /** The display threshold of each class. */
  thresholdFor: (cls: ProductClass) => number;
}

export function qualitySignals(input: QualityInputs): QualitySignals {
  const shown = input.frames.flatMap((f) =>
    f.detections.filter(
      (d) => HONEYBEE_CLASSES.includes(d.cls) && d.score >= input.thresholdFor(d.cls),
    ),
  );
  const enough = shown.length >= QUALITY_MIN_HONEYBEES;
  const ratios = shown.map((d) => d.score / Math.max(input.thresholdFor(d.cls), 1e-6));
  const honeybeeTracks = input.tracks.filter((t) => HONEYBEE_CLASSES.includes(t.cls));
  const shortFrames = SHORT_TRACK_S * input.sampleFps;
  const looks = input.looks;
  return {
    sizeRatio: input.sizeRatio,
    zoom: input.zoom,
    scoreRatio: enough ? mean(ratios) : null,
    weakShare: enough ? ratios.filter((r) => r < WEAK_SCORE_FACTOR).length / ratios.length : null,
    sharpness: medianOf(looks.map((l) => l.sharpness)),
    brightness: medianOf(looks.map((l) => l.brightness)),
    clippedShare: medianOf(looks.map((l) => l.clippedShare)),
    shortTrackShare:
      input.kind === 'video' && honeybeeTracks.length >= MIN_TRACKS
        ? honeybeeTracks.filter((t) => t.lastFrame - t.firstFrame + 1 < shortFrames).length /
          honeybeeTracks.length
        : null,
  };
}

interface Check {
  bound: keyof QualityThresholds;
  value: (s: QualitySignals) => number | null;
  reason: (grade: Exclude<QualityGrade, 'good'>, s: QualitySignals) => string;
}

const CHECKS: readonly Check[] = [
  {
    bound: 'sizeOff',
    value: (s) => (s.sizeRatio && s.sizeRatio > 0 ? Math.abs(Math.log(s.sizeRatio)) : null),
    reason: (grade, s) =>
      (s.sizeRatio ?? 1) > 1
        ? grade === 'poor'
          ? 'Bees look far larger than in our training footage; counts are likely off.'
          : 'Bees look much larger than in our training footage; counts may be off.'
        : grade === 'poor'
          ? 'Bees look far smaller than in our training footage; many may be missed.'
          : 'Bees look much smaller than in our training footage; some may be missed.',
  },
  {
    bound: 'sharpness',
    value: (s) => s.sharpness,
    reason: (grade) =>
      grade === 'poor'
        ? 'The footage is badly blurred; counts are likely off.'
        : 'The footage looks blurred; bees may be missed or miscounted.',
  },
  {
    bound: 'darkness',
    value: (s) => s.brightness,
    reason: () => 'The footage is very dark; bees may be missed.',
  },
  {
    bound: 'brightness',
    value: (s) => s.brightness,
    reason: () => 'The footage is very bright; bees may be missed.',
  },
  {
    bound: 'clippedShare',
    value: (s) => s.clippedShare,
    reason: () => 'Much of the picture is black or white; bees there cannot be seen.',
  },
  {
    bound: 'scoreRatio',
    value: (s) => s.scoreRatio,
    reason: (grade) =>
      grade === 'poor'
        ? 'The model is very unsure of the bees it found; counts are likely off.'
        : 'The model is unsure of many bees it found; counts may be off.',
  },
  {
    bound: 'weakShare',
    value: (s) => s.weakShare,
    reason: () => 'Many of the bees found were faint detections; counts may be off.',
  },
  {
    bound: 'shortTrackShare',
    value: (s) => s.shortTrackShare,
    reason: () =>
      'Bees were often lost and found again between frames; the unique count may be too high.',
  },
];

const RANK: Record<QualityGrade, number> = { good: 0, uncertain: 1, poor: 2 };

/** The grade one signal's value earns against its bound. */
export function gradeValue(value: number | null, bound: QualityBound): QualityGrade {
  if (value === null || !Number.isFinite(value)) return 'good';
  const past = (limit: number) => (bound.direction === 'above' ? value > limit : value < limit);
  if (bound.poor !== undefined && past(bound.poor)) return 'poor';
  return past(bound.uncertain) ? 'uncertain' : 'good';
}

export function gradeQuality(
  signals: QualitySignals,
  thresholds: QualityThresholds = QUALITY_THRESHOLDS,
): ResultQuality {
  let worst: { grade: Exclude<QualityGrade, 'good'>; check: Check } | undefined;
  for (const check of CHECKS) {
    const grade = gradeValue(check.value(signals), thresholds[check.bound]);
    if (grade !== 'good' && RANK[grade] > RANK[worst?.grade ?? 'good']) worst = { grade, check };
  }
  if (worst)
    return { grade: worst.grade, reason: worst.check.reason(worst.grade, signals), signals };
  const reason =
    signals.scoreRatio === null
      ? 'Too few bees to judge the model by; the footage itself looks clear.'
      : 'The footage looks like the footage the model learnt from.';
  return { grade: 'good', reason, signals };
}

function mean(values: readonly number[]): number {
  return values.reduce((a, b) => a + b, 0) / values.length;
}

function medianOf(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

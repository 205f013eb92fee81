/**
 * Multi-object tracker for insects across sampled frames (SORT / ByteTrack in spirit).
 *
 * - Motion: each track predicts its box with a constant-velocity model (centre velocity per
 *   frame, smoothed); at 5 fps a walking bee moves a good part of its body length per frame.
 * - Association cost: 1 - IoU(predicted, detection) + centre distance in box sizes, plus a small
 *   penalty when the classes differ (subtypes flicker, so it is a penalty, not a wall). A pair is
 *   allowed when the boxes overlap enough or the centres are close relative to the box size.
 * - Two stages (ByteTrack): high-score detections are matched first, to every live track; then
 *   low-score detections only to the tracks still unmatched. Only a high-score detection starts
 *   an ordinary track, so a weak blip never becomes an insect on its own; with `weakStartScore`
 *   a low one the frames still show starts a weak track, which must stay `weakStartHits`
 *   frames (a bee resting on the board, scored low on every frame).
 * - Camera motion: with `followScene`, every track is first moved by the whole scene's shift since
 *   the last frame (`estimateSceneShift`: a hand-held camera panning or shaking), so that the
 *   velocity and the matching see only the insect's own motion.
 * - Greedy matching by ascending cost, or the least total cost (`assignment`).
 * - A track is tentative until `minHits` matched frames, then confirmed; it ends after `maxAge`
 *   frames without a match (a tentative one after `tentativeMaxAge`).
 * - A track's class is its majority class over its hits; ties go to the higher summed score.
 * - With `countScore`, a confirmed track that has moved counts only when the median score of its
 *   hits reaches its class's: its frames are fresh looks, where false and doubled boxes pile up.
 */
import { iou } from '../detection/nms.ts';
import { maxWeightAssignment } from './assignment.ts';
import { estimateSceneShift, median, scenePoint } from './scene-shift.ts';
import type { ScenePoint } from './scene-shift.ts';
import { HONEYBEE_CLASSES, PRODUCT_CLASSES } from '../types.ts';
import type { Box, Detection, ProductClass, Track } from '../types.ts';

export interface TrackerOptions {
  /** Matched frames before a track counts (default 2). */
  minHits?: number;
  /** Frames a confirmed track survives without a match (default 5: 1 s at 5 fps). */
  maxAge?: number;
  /** Frames a tentative track survives without a match (default 1). */
  tentativeMaxAge?: number;
  /** Detections at or above this score are "high" (stage 1, may start tracks) (default 0.4). */
  highScore?: number;
  /**
   * Low detections at or above this score, matched to no track, start weak tracks, which count
   * only after `weakStartHits` matched frames (default: none start; e.g. the class's display
   * threshold, so that an insect the frames show but never score high is counted once it stays).
   */
  weakStartScore?: (detection: Detection) => number;
  /** Matched frames before a weak track counts (default 3). */
  weakStartHits?: number;
  /**
   * The median score of its hits a track of a class needs to count once it has moved its own
   * size (`MOVED_SIZES`; default: none, every confirmed track counts). A moving insect is looked
   * at afresh on every frame: a one-pass detector's weak, partial and doubled boxes link into
   * tracks that each add one, while a bee it misses on one frame is found on the next, so its
   * unique counts run high without one (`trackerOptionsFor`). A still one's frames are the
   * same look again: it counts as its frames show it.
   */
  countScore?: (cls: ProductClass) => number;
  /** Overlap that allows a pair regardless of distance (default 0.1). */
  minIou?: number;
  /** Centre distance, in box sizes, that allows a pair without overlap (default 1.5). */
  maxCentreDistance?: number;
  /** Weight of the centre distance in the cost (default 0.5). */
  distanceWeight?: number;
  /** Added cost when the detection's class differs from the track's current class (default 0.3). */
  classMismatchCost?: number;
  /** Weight of the newest velocity measurement in the smoothed velocity (default 0.6). */
  velocitySmoothing?: number;
  /**
   * Move every track by the scene's shift between frames, judged from the high-score
   * detections (`estimateSceneShift`), before matching (default true).
   */
  followScene?: boolean;
  /**
   * How much the reach (`maxCentreDistance`) grows with each frame a track goes unmatched, as a
   * share of itself (default 0.5: at 15 fps a second's miss reaches 8 times as far).
   */
  missedReach?: number;
  /** Pairs tracks and detections by least total cost (`hungarian`) or greedily (default). */
  assignment?: 'greedy' | 'hungarian';
  /**
   * Where insects leave the picture without flying (a hive entrance): a confirmed track whose
   * boxes (its last one where they leave) say it went there ends after `exitMaxAge` unmatched
   * frames, not `maxAge`, so that it does not take over a bee coming out of the entrance or
   * passing it (default: never).
   */
  exit?: (boxes: readonly Box[]) => boolean;
  /** Unmatched frames a track last seen in the exit survives (default 1). */
  exitMaxAge?: number;
}

export const DEFAULT_TRACKER_OPTIONS: Required<TrackerOptions> = {
  minHits: 2,
  maxAge: 5,
  tentativeMaxAge: 1,
  highScore: 0.4,
  weakStartScore: () => Number.POSITIVE_INFINITY,
  weakStartHits: 3,
  countScore: () => 0,
  minIou: 0.1,
  maxCentreDistance: 1.5,
  distanceWeight: 0.5,
  classMismatchCost: 0.3,
  velocitySmoothing: 0.6,
  followScene: true,
  missedReach: 0.5,
  assignment: 'greedy',
  exit: () => false,
  exitMaxAge: 1,
};

/** How long a confirmed track may go unseen, in seconds of video (1 s: maxAge 5 at 5 fps). */
export const TRACK_MAX_GAP_S = 1;
/** A track has moved once a hit's centre is this many box sizes from its first (`countScore`). */
export const MOVED_SIZES = 1;
/** How long a weak track must stay before it counts, in seconds of video (5 frames at 5 fps). */
export const WEAK_TRACK_MIN_S = 1;
/** The reach's growth per unmatched frame at 5 fps (`missedReach`); per second it is 5 times. */
const MISSED_REACH_AT_5FPS = 0.5;

/** The score thresholds a frame's detections are shown at (the detector's, per media). */
export interface DisplayThresholds {
  score: number;
  perClass?: Partial<Record<ProductClass, number>>;
}

/**
 * Options for frames sampled at `sampleFps`: the gaps a track survives are a time, not a frame
 * count, so a bee that hides for half a second is one bee at 2 fps and at 15 fps alike (a
 * fixed 5 frames was 2.5 s at 2 fps and a third of a second at 15 fps, where every short
 * occlusion split a bee into two).
 *
 * With the frames' `display` thresholds, a honeybee shown on the frames but never scored high
 * enough to start a track (a bee resting on the board, scored 0.25-0.4) starts a weak one that
 * counts once it has stayed `WEAK_TRACK_MIN_S`: on still clips of the hive validation frames
 * the unique counts were 19-24 % under the frames' own (training/README.md). Hornets still
 * need a high score to start: a hornet track sends Researchers an alert.
 *
 * With `trackScores` (the card's `thresholds.track_score`), a track of a class named there
 * that moved counts only when the median score of its hits reaches its class's (`countScore`):
 * on a 1920x1080 window panning across the hive validation frames, a detector's unique
 * honeybees ran 13-15 % high without one (training/README.md).
 */
export function trackerOptionsFor(
  sampleFps: number,
  display?: DisplayThresholds,
  trackScores?: Partial<Record<ProductClass, number>>,
): TrackerOptions {
  if (!(sampleFps > 0 && Number.isFinite(sampleFps))) {
    throw new RangeError(`Sample rate must be a positive number, got ${sampleFps}`);
  }
  const maxAge = Math.max(1, Math.round(TRACK_MAX_GAP_S * sampleFps));
  // The reach grows with the time a track goes unseen, not its frames: at 15 fps a second's
  // miss reached 8 times as far, and took over other bees (docs/experiments/014).
  const missedReach = (MISSED_REACH_AT_5FPS * 5) / sampleFps;
  const counting = trackScores ? { countScore: (cls: ProductClass) => trackScores[cls] ?? 0 } : {};
  if (!display) return { maxAge, missedReach, ...counting };
  const { score, perClass = {} } = display;
  return {
    maxAge,
    missedReach,
    ...counting,
    weakStartScore: (d) =>
      HONEYBEE_CLASSES.includes(d.cls) ? (perClass[d.cls] ?? score) : Number.POSITIVE_INFINITY,
    weakStartHits: Math.max(
      DEFAULT_TRACKER_OPTIONS.minHits,
      Math.round(WEAK_TRACK_MIN_S * sampleFps),
    ),
  };
}

interface LiveTrack {
  id: number;
  cx: number;
  cy: number;
  w: number;
  h: number;
  vx: number;
  vy: number;
  firstFrame: number;
  lastFrame: number;
  hits: number;
  /** Started by a low detection and never matched to a high one: counts after weakStartHits. */
  weak: boolean;
  votes: Map<ProductClass, { n: number; score: number }>;
  boxes: { frame: number; box: Box; score: number }[];
  scores: number[];
}

export class Tracker {
  private readonly opts: Required<TrackerOptions>;
  private live: LiveTrack[] = [];
  private ended: LiveTrack[] = [];
  /** Tracks that ended with fewer than `minHits` hits while the video is still shorter than that. */
  private endedShort: LiveTrack[] = [];
  private nextId = 1;
  private framesSeen = 0;
  private lastFrame = -Infinity;
  /** The last frame's high-score insects, from which the scene's next shift is judged. */
  private lastPoints: ScenePoint[] = [];

  constructor(options: TrackerOptions = {}) {
    this.opts = { ...DEFAULT_TRACKER_OPTIONS, ...options };
    const { minHits, maxAge, tentativeMaxAge, weakStartHits } = this.opts;
    for (const [name, v] of Object.entries({ minHits, maxAge, tentativeMaxAge, weakStartHits })) {
      if (!Number.isInteger(v) || v < (name.endsWith('Hits') ? 1 : 0)) {
        throw new RangeError(`Tracker option ${name} must be a non-negative integer, got ${v}`);
      }
    }
  }

  /** Feeds one analysed frame; frame indices must increase. */
  update(frameIndex: number, detections: readonly Detection[]): void {
    if (!Number.isFinite(frameIndex) || frameIndex <= this.lastFrame) {
      throw new RangeError(`Frame indices must increase: ${frameIndex} after ${this.lastFrame}`);
    }
    this.lastFrame = frameIndex;
    this.framesSeen++;
    const { highScore, weakStartScore } = this.opts;
    const high = detections.filter((d) => d.score >= highScore);
    const low = detections.filter((d) => d.score < highScore);
    if (this.opts.followScene) this.moveWithScene(high);
    const unmatchedTracks = new Set(this.live);

    const stage1 = this.associate(frameIndex, [...unmatchedTracks], high);
    for (const [track, det] of stage1.pairs) {
      // A weak track that scores high once is an ordinary track: weak starts only add insects.
      track.weak = false;
      this.hit(track, det, frameIndex);
      unmatchedTracks.delete(track);
    }
    const stage2 = this.associate(frameIndex, [...unmatchedTracks], low);
    for (const [track, det] of stage2.pairs) {
      this.hit(track, det, frameIndex);
      unmatchedTracks.delete(track);
    }
    for (const det of stage1.unmatched) this.live.push(this.start(det, frameIndex));
    for (const det of stage2.unmatched) {
      if (det.score >= weakStartScore(det)) this.live.push(this.start(det, frameIndex, true));
    }

    // End tracks that have been missing too long.
    const stillLive: LiveTrack[] = [];
    for (const track of this.live) {
      const missed = frameIndex - track.lastFrame;
      const limit = !this.isConfirmed(track)
        ? this.opts.tentativeMaxAge
        : missed > this.opts.exitMaxAge && this.opts.exit(track.boxes.map((b) => b.box))
          ? this.opts.exitMaxAge
          : this.opts.maxAge;
      if (missed > limit) this.end(track);
      else stillLive.push(track);
    }
    this.live = stillLive;
    if (this.framesSeen >= this.opts.minHits) this.endedShort = [];
  }

  /**
   * Ends every track and returns the confirmed ones that count (still, or with a median hit
   * score at their class's `countScore`), ordered by first frame, numbered from 1. When the
   * whole video had fewer frames than `minHits`, every track counts (a one-frame video of three
   * bees has three bees).
   */
  finish(): Track[] {
    for (const track of this.live) this.end(track);
    this.live = [];
    const shortVideo = this.framesSeen < this.opts.minHits;
    const confirmed = shortVideo ? [...this.ended, ...this.endedShort] : this.ended;
    const tracks = confirmed
      // A weak track never scored high: it counts as the honeybee it started as, never as a
      // hornet (whose tracks alert Researchers, and need a high score).
      .map((t) => ({ t, cls: majorityClass(t, t.weak ? HONEYBEE_CLASSES : PRODUCT_CLASSES) }))
      // A video shorter than minHits frames counts what its frames show.
      .filter(
        ({ t, cls }) => shortVideo || !moved(t) || median(t.scores) >= this.opts.countScore(cls),
      )
      .sort((a, b) => a.t.firstFrame - b.t.firstFrame || a.t.id - b.t.id)
      .map(({ t, cls }, i) => ({
        id: i + 1,
        cls,
        firstFrame: t.firstFrame,
        lastFrame: t.lastFrame,
        hits: t.hits,
        boxes: t.boxes,
      }));
    return tracks;
  }

  /** Moves every live track by the scene's shift since the last frame. */
  private moveWithScene(high: readonly Detection[]): void {
    const points = high.map((d) => scenePoint(d.box));
    const shift = estimateSceneShift(this.lastPoints, points);
    for (const track of this.live) {
      track.cx += shift.dx;
      track.cy += shift.dy;
    }
    this.lastPoints = points;
  }

  /** Number of live tracks (tentative and confirmed), for tests and diagnostics. */
  get liveCount(): number {
    return this.live.length;
  }

  private isConfirmed(track: LiveTrack): boolean {
    return track.hits >= (track.weak ? this.opts.weakStartHits : this.opts.minHits);
  }

  private end(track: LiveTrack): void {
    if (this.isConfirmed(track)) this.ended.push(track);
    else if (this.framesSeen < this.opts.minHits) this.endedShort.push(track);
  }

  private start(det: Detection, frame: number, weak = false): LiveTrack {
    const track: LiveTrack = {
      id: this.nextId++,
      cx: det.box.x + det.box.width / 2,
      cy: det.box.y + det.box.height / 2,
      w: det.box.width,
      h: det.box.height,
      vx: 0,
      vy: 0,
      firstFrame: frame,
      lastFrame: frame,
      hits: 0,
      weak,
      votes: new Map(),
      boxes: [],
      scores: [],
    };
    this.record(track, det, frame);
    return track;
  }

  private hit(track: LiveTrack, det: Detection, frame: number): void {
    const cx = det.box.x + det.box.width / 2;
    const cy = det.box.y + det.box.height / 2;
    const gap = frame - track.lastFrame;
    const mvx = (cx - track.cx) / gap;
    const mvy = (cy - track.cy) / gap;
    const a = track.hits <= 1 ? 1 : this.opts.velocitySmoothing;
    track.vx = a * mvx + (1 - a) * track.vx;
    track.vy = a * mvy + (1 - a) * track.vy;
    track.cx = cx;
    track.cy = cy;
    track.w = det.box.width;
    track.h = det.box.height;
    track.lastFrame = frame;
    this.record(track, det, frame);
  }

  private record(track: LiveTrack, det: Detection, frame: number): void {
    track.hits++;
    track.boxes.push({ frame, box: { ...det.box }, score: det.score });
    track.scores.push(det.score);
    const vote = track.votes.get(det.cls) ?? { n: 0, score: 0 };
    vote.n++;
    vote.score += det.score;
    track.votes.set(det.cls, vote);
  }

  /** Greedy assignment by ascending cost among allowed pairs. */
  private associate(
    frame: number,
    tracks: LiveTrack[],
    dets: readonly Detection[],
  ): { pairs: [LiveTrack, Detection][]; unmatched: Detection[] } {
    const candidates: { t: number; d: number; cost: number }[] = [];
    const { minIou, maxCentreDistance, distanceWeight, classMismatchCost, missedReach } = this.opts;
    tracks.forEach((track, t) => {
      const gap = frame - track.lastFrame;
      const pcx = track.cx + track.vx * gap;
      const pcy = track.cy + track.vy * gap;
      const predicted: Box = {
        x: pcx - track.w / 2,
        y: pcy - track.h / 2,
        width: track.w,
        height: track.h,
      };
      const cls = leadingClass(track);
      // Uncertainty grows with each missed frame, and before the velocity is known.
      const reach =
        maxCentreDistance * (1 + missedReach * (gap - 1)) * (track.hits === 1 ? 1.5 : 1);
      dets.forEach((det, d) => {
        const overlap = iou(predicted, det.box);
        const size = Math.sqrt((track.w * track.h + det.box.width * det.box.height) / 2);
        const dx = det.box.x + det.box.width / 2 - pcx;
        const dy = det.box.y + det.box.height / 2 - pcy;
        const distance = Math.hypot(dx, dy) / Math.max(size, 1e-6);
        if (overlap < minIou && distance > reach) return;
        const cost =
          1 - overlap + distanceWeight * distance + (det.cls === cls ? 0 : classMismatchCost);
        candidates.push({ t, d, cost });
      });
    });
    const usedD = new Uint8Array(dets.length);
    const pairs: [LiveTrack, Detection][] = [];
    for (const { t, d } of this.pick(candidates, tracks.length)) {
      usedD[d] = 1;
      pairs.push([tracks[t]!, dets[d]!]);
    }
    return { pairs, unmatched: dets.filter((_, d) => !usedD[d]) };
  }

  /** The allowed pairs kept: greedily by ascending cost, or by least total cost. */
  private pick(
    candidates: { t: number; d: number; cost: number }[],
    trackCount: number,
  ): { t: number; d: number }[] {
    if (this.opts.assignment === 'hungarian') {
      // Weights above every cost, so that more pairs always beat fewer; disallowed pairs 0.
      const top = 1 + Math.max(0, ...candidates.map((c) => c.cost));
      const weights: number[][] = Array.from({ length: trackCount }, () => []);
      const detCount = 1 + Math.max(-1, ...candidates.map((c) => c.d));
      for (const row of weights) row.length = detCount;
      for (const row of weights) row.fill(0);
      for (const { t, d, cost } of candidates) weights[t]![d] = top - cost;
      return maxWeightAssignment(weights).flatMap((d, t) =>
        d >= 0 && weights[t]![d]! > 0 ? [{ t, d }] : [],
      );
    }
    candidates.sort((a, b) => a.cost - b.cost);
    const usedT = new Uint8Array(trackCount);
    const usedD = new Set<number>();
    const kept: { t: number; d: number }[] = [];
    for (const { t, d } of candidates) {
      if (usedT[t] || usedD.has(d)) continue;
      usedT[t] = 1;
      usedD.add(d);
      kept.push({ t, d });
    }
    return kept;
  }
}

/** Whether a hit's centre lies `MOVED_SIZES` box sizes or more from the track's first. */
function moved(track: LiveTrack): boolean {
  const hits = track.boxes.map(({ box }) => scenePoint(box));
  const first = hits[0]!;
  const size = median(hits.map((p) => p.size));
  return hits.some((p) => Math.hypot(p.x - first.x, p.y - first.y) >= MOVED_SIZES * size);
}

/** The class with most votes; ties go to the higher summed score, then product order. */
function majorityClass(
  track: LiveTrack,
  classes: readonly ProductClass[] = PRODUCT_CLASSES,
): ProductClass {
  let best: ProductClass = 'bee';
  let bestVote = { n: -1, score: -1 };
  for (const cls of classes) {
    const vote = track.votes.get(cls);
    if (!vote) continue;
    if (vote.n > bestVote.n || (vote.n === bestVote.n && vote.score > bestVote.score)) {
      best = cls;
      bestVote = vote;
    }
  }
  return best;
}

const leadingClass = majorityClass;

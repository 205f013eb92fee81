/**
 * One synthetic clip through a detection feed, the tracker and the count, scored against its
 * exact truth: HOTA, IDF1, MOTA, the unique count, and per direction the crossings' precision,
 * recall and count error. A counted passage matches a true one of its direction within
 * `toleranceS` (eval's 1 s); one that matches only a passage whose start or end lies outside
 * the clip (`TrueCrossing.certain` false) is neither right nor wrong.
 */
import { Tracker } from '../../engine/tracking/tracker.ts';
import type { TrackerOptions } from '../../engine/tracking/tracker.ts';
import { countTraffic } from '../../engine/traffic/count.ts';
import type { TrafficOptions } from '../../engine/traffic/count.ts';
import type { Detection, Track, TrafficEvent } from '../../engine/types.ts';
import { scoreHota } from '../hota.ts';
import type { HotaScore } from '../hota.ts';
import { scoreTracking, trackObjects } from '../track-metrics.ts';
import type { FrameObjects, TrackingScore } from '../track-metrics.ts';
import { beesAt, sampledFrames } from './simulate.ts';
import type { BeeState, Simulation, TrueCrossing } from './simulate.ts';

export interface DirectionScore {
  labelled: number;
  counted: number;
  matched: number;
}

export type Direction = 'in' | 'out' | 'loop';
export type CrossingScores = Record<Direction, DirectionScore>;

export interface ClipScore {
  tracking: TrackingScore;
  hota: HotaScore;
  crossings: CrossingScores;
}

/** A feed gives each sampled frame's detections from the bees on it (the truth, or pixels). */
export type Feed = (
  sample: number,
  bees: readonly BeeState[],
) => Detection[] | Promise<Detection[]>;

/** Runs `sim` sampled at `fps` through `feed`, the tracker and the count, and scores it. */
export async function scoreClip(
  sim: Simulation,
  fps: number,
  feed: Feed,
  options: { tracker: TrackerOptions; traffic?: TrafficOptions; track?: TrackFn },
): Promise<ClipScore> {
  const frames = sampledFrames(sim, fps);
  const gt: FrameObjects[] = [];
  const detections: Detection[][] = [];
  for (const [k, frame] of frames.entries()) {
    const bees = beesAt(sim, frame);
    gt.push({ frame: k, objects: bees.map((b) => ({ id: b.id, box: b.box })) });
    detections.push(await feed(k, bees));
  }
  const track = options.track ?? trackWithTracker;
  const tracks = track(detections, options.tracker);
  const hyp = trackObjects(tracks);
  const { width, height } = sim.camera;
  const traffic = countTraffic(
    tracks,
    sim.camera.entrance,
    { width, height, sampleFps: fps, durationS: frames.length / fps },
    options.traffic,
  );
  return {
    tracking: scoreTracking(gt, hyp),
    hota: scoreHota(gt, hyp),
    crossings: scoreSimCrossings(traffic.events, sim.crossings),
  };
}

export type TrackFn = (detections: readonly Detection[][], options: TrackerOptions) => Track[];

export function trackWithTracker(
  detections: readonly Detection[][],
  options: TrackerOptions,
): Track[] {
  const tracker = new Tracker(options);
  detections.forEach((d, k) => tracker.update(k, d));
  return tracker.finish();
}

/** Counted passages against the true ones, per direction (see the module's note). */
export function scoreSimCrossings(
  events: readonly Pick<TrafficEvent, 'kind' | 'timeS'>[],
  truth: readonly TrueCrossing[],
  toleranceS = 1,
): CrossingScores {
  const score = (kind: Direction): DirectionScore => {
    const counted = events.filter((e) => e.kind === kind).map((e) => e.timeS);
    const labels = truth.filter((c) => c.direction === kind);
    const certain = labels.filter((c) => c.certain).map((c) => c.timeS);
    const unsure = labels.filter((c) => !c.certain).map((c) => c.timeS);
    const { matched, left } = matchInTime(counted, certain, toleranceS);
    const excused = matchInTime(left, unsure, toleranceS).matched;
    return { labelled: certain.length, counted: counted.length - excused, matched };
  };
  return { in: score('in'), out: score('out'), loop: score('loop') };
}

/** Nearest-in-time pairs within the tolerance, closest first; the counted times left over. */
function matchInTime(
  counted: readonly number[],
  labelled: readonly number[],
  toleranceS: number,
): { matched: number; left: number[] } {
  const pairs: { c: number; l: number; d: number }[] = [];
  counted.forEach((t, c) =>
    labelled.forEach((u, l) => {
      const d = Math.abs(t - u);
      if (d <= toleranceS) pairs.push({ c, l, d });
    }),
  );
  pairs.sort((a, b) => a.d - b.d);
  const usedC = new Set<number>();
  const usedL = new Set<number>();
  for (const { c, l } of pairs) {
    if (usedC.has(c) || usedL.has(l)) continue;
    usedC.add(c);
    usedL.add(l);
  }
  return { matched: usedC.size, left: counted.filter((_, c) => !usedC.has(c)) };
}

export const precisionOf = (s: DirectionScore) => (s.counted > 0 ? s.matched / s.counted : 1);
export const recallOf = (s: DirectionScore) => (s.labelled > 0 ? s.matched / s.labelled : 1);
/** Signed: (counted - labelled) / labelled. */
export const countErrorOf = (s: DirectionScore) =>
  s.labelled > 0 ? (s.counted - s.labelled) / s.labelled : 0;

/** Sums clips' crossing scores. */
export function sumCrossings(scores: readonly CrossingScores[]): CrossingScores {
  const sum = (d: Direction): DirectionScore => ({
    labelled: scores.reduce((a, s) => a + s[d].labelled, 0),
    counted: scores.reduce((a, s) => a + s[d].counted, 0),
    matched: scores.reduce((a, s) => a + s[d].matched, 0),
  });
  return { in: sum('in'), out: sum('out'), loop: sum('loop') };
}

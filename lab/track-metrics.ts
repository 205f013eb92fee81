/**
 * The tracker's check on labelled frames of one recording (issue 42, item 1): the labelled boxes
 * of consecutive frames linked into ground-truth identities (`linkIdentities`), then a tracker's
 * output scored against them by the CLEAR-MOT and identity measures (`scoreTracking`): MOTA,
 * IDF1, identity switches, fragmentations, and the unique-count error that the product reports.
 * Pure: boxes in, figures out.
 */
import { iou } from '../engine/detection/nms.ts';
import { Tracker } from '../engine/tracking/tracker.ts';
import { maxWeightAssignment } from '../engine/tracking/assignment.ts';
import type { TrackerOptions } from '../engine/tracking/tracker.ts';
import { makeDetection } from '../engine/detection/detection.ts';
import { isProductClass } from '../engine/types.ts';
import type { Box, ProductClass, Track } from '../engine/types.ts';
import type { LabelledBox } from '../engine/eval/datasets.ts';

/** What one frame holds: objects with an identity (ground truth or a tracker's). */
export interface FrameObjects {
  frame: number;
  objects: { id: number; box: Box }[];
}

export interface LinkOptions {
  /** Overlap that links two boxes of consecutive frames (default 0.2). */
  minIou?: number;
  /** Centre distance, in box sizes, that links them without that overlap (default 1.5). */
  maxCentreDistance?: number;
  /** Frames an identity may go unlabelled and still be linked again (default 2). */
  maxGap?: number;
}

/**
 * Links the boxes of consecutive labelled frames (`frames`, in time order, each a list of boxes)
 * into identities: greedily by ascending cost (1 - IoU + centre distance in box sizes, plus 0.1
 * per frame the identity went unlabelled), a pair allowed when it overlaps `minIou` or its
 * centres lie within `maxCentreDistance` sizes. Hand labels miss a bee on a frame now and then,
 * so an identity unlabelled for up to `maxGap` frames is linked again from its last box; a box
 * linked to none starts a new identity.
 */
export function linkIdentities(
  frames: readonly { frame: number; boxes: readonly Box[] }[],
  options: LinkOptions = {},
): FrameObjects[] {
  const minIou = options.minIou ?? 0.2;
  const maxCentre = options.maxCentreDistance ?? 1.5;
  const maxGap = options.maxGap ?? 2;
  let nextId = 1;
  /** Each identity's last box and the sequence position it was labelled at. */
  const recent = new Map<number, { box: Box; at: number }>();
  return frames.map(({ frame, boxes }, at) => {
    const live = [...recent.entries()].filter(([, r]) => at - r.at - 1 <= maxGap);
    const pairs: { p: number; b: number; cost: number }[] = [];
    live.forEach(([, prev], p) => {
      boxes.forEach((box, b) => {
        const overlap = iou(prev.box, box);
        const distance = centreDistance(prev.box, box);
        if (overlap >= minIou || distance <= maxCentre) {
          pairs.push({ p, b, cost: 1 - overlap + distance + 0.1 * (at - prev.at - 1) });
        }
      });
    });
    pairs.sort((x, y) => x.cost - y.cost);
    const ids = new Array<number | undefined>(boxes.length);
    const usedP = new Set<number>();
    for (const { p, b } of pairs) {
      if (usedP.has(p) || ids[b] !== undefined) continue;
      usedP.add(p);
      ids[b] = live[p]![0];
    }
    const objects = boxes.map((box, b) => ({ id: ids[b] ?? nextId++, box }));
    for (const o of objects) recent.set(o.id, { box: o.box, at });
    return { frame, objects };
  });
}

/** Distance between two boxes' centres in their mean size (square root of mean area). */
export function centreDistance(a: Box, b: Box): number {
  const size = Math.sqrt((a.width * a.height + b.width * b.height) / 2);
  const dx = a.x + a.width / 2 - (b.x + b.width / 2);
  const dy = a.y + a.height / 2 - (b.y + b.height / 2);
  return Math.hypot(dx, dy) / Math.max(size, 1e-9);
}

/** A tracker's tracks as frame objects (each hit's box under the track's id). */
export function trackObjects(tracks: readonly Track[]): FrameObjects[] {
  const byFrame = new Map<number, FrameObjects['objects']>();
  for (const track of tracks) {
    for (const { frame, box } of track.boxes) {
      const list = byFrame.get(frame) ?? [];
      list.push({ id: track.id, box });
      byFrame.set(frame, list);
    }
  }
  return [...byFrame.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([frame, objects]) => ({ frame, objects }));
}

export interface TrackingScore {
  /** Labelled boxes over all frames, and the tracker's. */
  gtBoxes: number;
  hypBoxes: number;
  /** Boxes on which an identity's one paired track matches it (IDF1's true positives). */
  idtp: number;
  /** Ground-truth identities and the tracker's tracks. */
  gtIds: number;
  /** Identities labelled on two frames or more (a track needs two hits to count). */
  gtIdsSeenTwice: number;
  hypIds: number;
  misses: number;
  falsePositives: number;
  idSwitches: number;
  /** Times a labelled identity's tracking stopped and started again. */
  fragmentations: number;
  /** 1 - (misses + false positives + switches) / labelled boxes. */
  mota: number;
  /** 2 IDTP / (labelled boxes + tracker boxes), with one track per identity at best. */
  idf1: number;
  /** (tracks - identities) / identities: the unique count's error. */
  uniqueCountError: number;
}

/**
 * Scores `hyp` against `gt` (the same frame numbers): per frame, a labelled identity keeps its
 * previous track while they still overlap `matchIou`, the rest are paired by largest overlap
 * (CLEAR-MOT); IDF1 pairs identities and tracks once for the whole sequence (Hungarian).
 */
export function scoreTracking(
  gt: readonly FrameObjects[],
  hyp: readonly FrameObjects[],
  options: { matchIou?: number } = {},
): TrackingScore {
  const matchIou = options.matchIou ?? 0.5;
  const hypByFrame = new Map(hyp.map((f) => [f.frame, f.objects]));
  const frames = [...new Set([...gt.map((f) => f.frame), ...hyp.map((f) => f.frame)])].sort(
    (a, b) => a - b,
  );
  const gtByFrame = new Map(gt.map((f) => [f.frame, f.objects]));
  let gtBoxes = 0;
  let hypBoxes = 0;
  let misses = 0;
  let falsePositives = 0;
  let idSwitches = 0;
  let fragmentations = 0;
  /** The track each identity was last matched to, and whether it was matched on its last frame. */
  const lastMatch = new Map<number, number>();
  const trackedLast = new Map<number, boolean>();
  /** Frames on which identity g and track h overlap `matchIou` (for IDF1). */
  const overlapFrames = new Map<number, Map<number, number>>();
  const gtIds = new Set<number>();
  const seen = new Map<number, number>();
  const hypIds = new Set<number>();
  for (const frame of frames) {
    const g = gtByFrame.get(frame) ?? [];
    const h = hypByFrame.get(frame) ?? [];
    gtBoxes += g.length;
    hypBoxes += h.length;
    for (const o of g) {
      gtIds.add(o.id);
      seen.set(o.id, (seen.get(o.id) ?? 0) + 1);
    }
    for (const o of h) hypIds.add(o.id);
    const ious = g.map((go) => h.map((ho) => iou(go.box, ho.box)));
    g.forEach((go, i) => {
      h.forEach((ho, j) => {
        if (ious[i]![j]! < matchIou) return;
        const row = overlapFrames.get(go.id) ?? new Map<number, number>();
        row.set(ho.id, (row.get(ho.id) ?? 0) + 1);
        overlapFrames.set(go.id, row);
      });
    });
    const usedG = new Set<number>();
    const usedH = new Set<number>();
    const matched = new Map<number, number>();
    // Keep last frame's pairs that still overlap.
    g.forEach((go, i) => {
      const prev = lastMatch.get(go.id);
      if (prev === undefined || !trackedLast.get(go.id)) return;
      const j = h.findIndex((ho) => ho.id === prev);
      if (j >= 0 && !usedH.has(j) && ious[i]![j]! >= matchIou) {
        usedG.add(i);
        usedH.add(j);
        matched.set(i, j);
      }
    });
    const pairs: { i: number; j: number; v: number }[] = [];
    g.forEach((_, i) =>
      h.forEach((_, j) => {
        if (!usedG.has(i) && !usedH.has(j) && ious[i]![j]! >= matchIou) {
          pairs.push({ i, j, v: ious[i]![j]! });
        }
      }),
    );
    pairs.sort((a, b) => b.v - a.v);
    for (const { i, j } of pairs) {
      if (usedG.has(i) || usedH.has(j)) continue;
      usedG.add(i);
      usedH.add(j);
      matched.set(i, j);
    }
    g.forEach((go, i) => {
      const j = matched.get(i);
      if (j === undefined) {
        misses++;
        trackedLast.set(go.id, false);
        return;
      }
      const track = h[j]!.id;
      const prev = lastMatch.get(go.id);
      if (prev !== undefined && prev !== track) idSwitches++;
      if (prev !== undefined && trackedLast.get(go.id) === false) fragmentations++;
      lastMatch.set(go.id, track);
      trackedLast.set(go.id, true);
    });
    falsePositives += h.length - usedH.size;
  }
  const gtList = [...gtIds];
  const hypList = [...hypIds];
  const weights = gtList.map((gid) => hypList.map((hid) => overlapFrames.get(gid)?.get(hid) ?? 0));
  const idtp = maxWeightMatching(weights);
  return {
    gtBoxes,
    hypBoxes,
    idtp,
    gtIds: gtIds.size,
    gtIdsSeenTwice: [...seen.values()].filter((n) => n >= 2).length,
    hypIds: hypIds.size,
    misses,
    falsePositives,
    idSwitches,
    fragmentations,
    mota: gtBoxes === 0 ? 0 : 1 - (misses + falsePositives + idSwitches) / gtBoxes,
    idf1: gtBoxes + hypBoxes === 0 ? 0 : (2 * idtp) / (gtBoxes + hypBoxes),
    uniqueCountError: gtIds.size === 0 ? 0 : (hypIds.size - gtIds.size) / gtIds.size,
  };
}

/**
 * The largest total weight of a one-to-one pairing of rows and columns (Hungarian algorithm on
 * the negated weights, the matrix padded square with zeros).
 */
export function maxWeightMatching(weights: readonly (readonly number[])[]): number {
  return maxWeightAssignment(weights).reduce(
    (total, j, i) => total + (j >= 0 ? (weights[i]![j] ?? 0) : 0),
    0,
  );
}

/** Sums per-sequence scores into one (MOTA and IDF1 over all boxes, count error over all ids). */
export function totalScore(scores: readonly TrackingScore[]): TrackingScore {
  const sum = (key: keyof TrackingScore) => scores.reduce((a, s) => a + s[key], 0);
  const gtBoxes = sum('gtBoxes');
  const hypBoxes = sum('hypBoxes');
  const gtIds = sum('gtIds');
  const hypIds = sum('hypIds');
  const misses = sum('misses');
  const falsePositives = sum('falsePositives');
  const idSwitches = sum('idSwitches');
  const idtp = sum('idtp');
  return {
    gtBoxes,
    hypBoxes,
    idtp,
    gtIds,
    gtIdsSeenTwice: sum('gtIdsSeenTwice'),
    hypIds,
    misses,
    falsePositives,
    idSwitches,
    fragmentations: sum('fragmentations'),
    mota: gtBoxes === 0 ? 0 : 1 - (misses + falsePositives + idSwitches) / gtBoxes,
    idf1: gtBoxes + hypBoxes === 0 ? 0 : (2 * idtp) / (gtBoxes + hypBoxes),
    uniqueCountError: gtIds === 0 ? 0 : (hypIds - gtIds) / gtIds,
  };
}

/** The frame number in a video frame's file name (`..._frame_812.jpg`), or NaN. */
export function frameNumber(name: string): number {
  return Number(/(\d+)\.[a-z]+$/i.exec(name)?.[1] ?? NaN);
}

/**
 * Runs of consecutive frame numbers among `images` (of one recording), each in time order,
 * `minLength` frames or longer; `stride` keeps every stride-th frame of a run (frames sampled
 * further apart, as a lower sample rate would).
 */
export function consecutiveRuns<T extends { path: string }>(
  images: readonly T[],
  options: { minLength?: number; stride?: number } = {},
): T[][] {
  const minLength = options.minLength ?? 10;
  const stride = options.stride ?? 1;
  const sorted = [...images]
    .filter((i) => Number.isFinite(frameNumber(i.path)))
    .sort((a, b) => frameNumber(a.path) - frameNumber(b.path));
  const runs: T[][] = [];
  for (const image of sorted) {
    const run = runs.at(-1);
    if (run && frameNumber(image.path) === frameNumber(run.at(-1)!.path) + 1) run.push(image);
    else runs.push([image]);
  }
  return runs
    .map((run) => run.filter((_, i) => i % stride === 0))
    .filter((run) => run.length >= minLength);
}

/**
 * The engine's tracker fed the labelled boxes themselves (each at `score`), frame i of the
 * sequence as analysed frame i: what the tracker alone loses, with perfect detections.
 */
export function trackLabelledBoxes(
  frames: readonly { boxes: readonly { cls: ProductClass; box: Box }[] }[],
  options: TrackerOptions,
  score = 0.9,
): Track[] {
  const tracker = new Tracker(options);
  frames.forEach((f, i) => {
    tracker.update(
      i,
      f.boxes.map((b) => makeDetection(b.cls, score, b.box)),
    );
  });
  return tracker.finish();
}

/** One run of consecutive labelled frames, its boxes in pixels and its linked identities. */
export interface LabelledSequence {
  /** First and last frame numbers, e.g. `800-832` (`/6` with a stride). */
  name: string;
  images: string[];
  /** Each frame's labelled boxes in source pixels, classes as labelled (any honeybee: bee). */
  frames: { boxes: { cls: ProductClass; box: Box }[] }[];
  /** The same boxes linked into identities (`linkIdentities`), frame i numbered i. */
  gt: FrameObjects[];
}

/**
 * The labelled frames of one recording (`images`, boxes normalised, all `width` x `height`)
 * as sequences: each run of consecutive frame numbers (`consecutiveRuns`), linked.
 */
export function labelledSequences(
  images: readonly { path: string; gt: readonly LabelledBox[] }[],
  size: { width: number; height: number },
  options: { minLength?: number; stride?: number; link?: LinkOptions } = {},
): LabelledSequence[] {
  const stride = options.stride ?? 1;
  return consecutiveRuns(images, options).map((run) => {
    const frames = run.map((image) => ({
      boxes: image.gt.map((g) => ({
        cls: isProductClass(g.cls) ? g.cls : ('bee' as const),
        box: {
          x: g.box.x * size.width,
          y: g.box.y * size.height,
          width: g.box.width * size.width,
          height: g.box.height * size.height,
        },
      })),
    }));
    const gt = linkIdentities(
      frames.map((f, i) => ({ frame: i, boxes: f.boxes.map((b) => b.box) })),
      options.link,
    );
    const first = frameNumber(run[0]!.path);
    const last = frameNumber(run.at(-1)!.path);
    return {
      name: `${first}-${last}${stride > 1 ? `/${stride}` : ''}`,
      images: run.map((image) => image.path),
      frames,
      gt,
    };
  });
}

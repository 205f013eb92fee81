/**
 * Test-time augmentation: the detector looks at a frame as it is and mirrored or turned, and the
 * views' candidates are fused. A mirrored bee is still a bee (training flipped and turned every patch),
 * but the network's errors on the two views are partly independent, so the averaged box sits
 * closer to the insect and a peak seen in one view only loses half its score.
 */
import type { RawFrame } from '../types.ts';
import type { Candidates } from './adapters/index.ts';
import { CandidateBuffer } from './adapters/candidates.ts';

export const VIEWS = [
  'identity',
  'flip_h',
  'flip_v',
  'rotate_180',
  'transpose',
  'rotate_90',
  'rotate_270',
  'transverse',
] as const;
export type View = (typeof VIEWS)[number];

export function isView(v: unknown): v is View {
  return (VIEWS as readonly unknown[]).includes(v);
}

/**
 * How `view` shows a frame: transposed (`t`: x and y swapped) first, then mirrored left-right
 * (`h`) and/or top-bottom (`v`). The eight views are the square's symmetries: `rotate_90` turns
 * the frame clockwise.
 */
export const viewAxes = (view: View) => {
  const t =
    view === 'transpose' || view === 'rotate_90' || view === 'rotate_270' || view === 'transverse';
  return {
    t,
    h: view === 'flip_h' || view === 'rotate_180' || view === 'rotate_90' || view === 'transverse',
    v: view === 'flip_v' || view === 'rotate_180' || view === 'rotate_270' || view === 'transverse',
  };
};

/** The size of a `width` x `height` frame as `view` shows it. */
function viewSize(view: View, width: number, height: number) {
  return viewAxes(view).t ? { width: height, height: width } : { width, height };
}

/** The frame as `view` shows it (a copy; the identity view is the frame itself). */
export function viewFrame(frame: RawFrame, view: View): RawFrame {
  if (view === 'identity') return frame;
  const { width: w, height: h, data } = frame;
  const { t, h: mh, v: mv } = viewAxes(view);
  const out = new Uint8Array(data.length);
  if (t) {
    // View pixel (x, y) is the transposed frame's (mirrored back), i.e. the frame's (y, x).
    const { width: vw, height: vh } = viewSize(view, w, h);
    for (let y = 0; y < vh; y++) {
      const fx = mv ? vh - 1 - y : y;
      for (let x = 0, d = y * vw * 3; x < vw; x++, d += 3) {
        const s = ((mh ? vw - 1 - x : x) * w + fx) * 3;
        out[d] = data[s]!;
        out[d + 1] = data[s + 1]!;
        out[d + 2] = data[s + 2]!;
      }
    }
    return { ...frame, width: vw, height: vh, data: out };
  }
  for (let y = 0; y < h; y++) {
    const src = (mv ? h - 1 - y : y) * w * 3;
    const dst = y * w * 3;
    if (!mh) {
      out.set(data.subarray(src, src + w * 3), dst);
      continue;
    }
    for (let x = 0, s = src + (w - 1) * 3; x < w; x++, s -= 3) {
      out[dst + x * 3] = data[s]!;
      out[dst + x * 3 + 1] = data[s + 1]!;
      out[dst + x * 3 + 2] = data[s + 2]!;
    }
  }
  return { ...frame, data: out };
}

/**
 * Maps boxes found in `view` of a `width` x `height` frame back onto the frame, in place. Boxes
 * reaching into the right/bottom padding of the model input mirror to negative coordinates,
 * which the detector clips like any other box.
 */
export function unviewCandidates(c: Candidates, view: View, width: number, height: number): void {
  const { t, h: mh, v: mv } = viewAxes(view);
  const { width: vw, height: vh } = viewSize(view, width, height);
  const b = c.boxes;
  for (let i = 0; i < c.count; i++) {
    if (mh) {
      const x1 = b[i * 4]!;
      b[i * 4] = vw - b[i * 4 + 2]!;
      b[i * 4 + 2] = vw - x1;
    }
    if (mv) {
      const y1 = b[i * 4 + 1]!;
      b[i * 4 + 1] = vh - b[i * 4 + 3]!;
      b[i * 4 + 3] = vh - y1;
    }
    if (t) {
      const [x1, y1, x2, y2] = [b[i * 4]!, b[i * 4 + 1]!, b[i * 4 + 2]!, b[i * 4 + 3]!];
      b[i * 4] = y1;
      b[i * 4 + 1] = x1;
      b[i * 4 + 2] = y2;
      b[i * 4 + 3] = x2;
    }
  }
}

/**
 * `own`'s candidates with those on `channels` replaced by `other`'s on the same channels (a
 * specialist's answer for its classes). `other`'s have no merged-channel scores: `channels`
 * never holds a merged one.
 */
export function takeChannels(
  own: Candidates,
  other: Candidates,
  channels: ReadonlySet<number>,
  groupSize: number,
): Candidates {
  const out = new CandidateBuffer(own.count + other.count || 1, groupSize);
  const copy = (c: Candidates, i: number) => {
    const b = c.boxes;
    out.push(b[i * 4]!, b[i * 4 + 1]!, b[i * 4 + 2]!, b[i * 4 + 3]!, c.scores[i]!, c.channels[i]!);
  };
  for (let i = 0; i < own.count; i++) {
    if (channels.has(own.channels[i]!)) continue;
    copy(own, i);
    if (own.groupScores) {
      out.groupOfLast().set(own.groupScores.subarray(i * groupSize, (i + 1) * groupSize));
    }
  }
  for (let i = 0; i < other.count; i++) if (channels.has(other.channels[i]!)) copy(other, i);
  return out.result();
}

export interface FuseOptions {
  /** Boxes of one insect in two views overlap at least this much (IoU). */
  matchIou: number;
  /** The score a fused candidate of `channel` must reach to be kept. */
  thresholdOf: (channel: number) => number;
  /** Merged-channel scores per candidate (`Candidates.groupScores`; 0 when there are none). */
  groupSize: number;
}

/**
 * One candidate per candidate of any view that could pass: its box the score-weighted mean of
 * its own and, in every other view, the best-overlapping candidate of the same channel; its
 * scores (and merged-channel scores) the mean over all views, a view without a match counting
 * 0. An insect therefore comes out once per view with near-identical boxes; the detector's NMS
 * keeps one. The views must have been decoded with a low floor, so that a weak match still
 * adds its score.
 */
export function fuseViews(views: readonly Candidates[], options: FuseOptions): Candidates {
  const k = views.length;
  const group = options.groupSize;
  const out = new CandidateBuffer(256, group);
  const box = new Float64Array(4);
  const groups = new Float64Array(group);
  views.forEach((a, va) => {
    for (let i = 0; i < a.count; i++) {
      const channel = a.channels[i]!;
      const threshold = options.thresholdOf(channel);
      // Mean over views <= best view: a candidate below its threshold in every view cannot pass.
      if (a.scores[i]! < threshold) continue;
      // Summed scores: the boxes' weights, and over k the fused score.
      let score = a.scores[i]!;
      for (let d = 0; d < 4; d++) box[d] = a.boxes[i * 4 + d]! * score;
      for (let g = 0; g < group; g++) groups[g] = a.groupScores?.[i * group + g] ?? 0;
      views.forEach((b, vb) => {
        if (vb === va) return;
        const j = bestMatch(a, i, b, options.matchIou);
        if (j < 0) return;
        const s = b.scores[j]!;
        score += s;
        for (let d = 0; d < 4; d++) box[d] = box[d]! + b.boxes[j * 4 + d]! * s;
        for (let g = 0; g < group; g++)
          groups[g] = groups[g]! + (b.groupScores?.[j * group + g] ?? 0);
      });
      if (score / k < threshold) continue;
      out.push(
        box[0]! / score,
        box[1]! / score,
        box[2]! / score,
        box[3]! / score,
        score / k,
        channel,
      );
      if (group > 0) {
        const mine = out.groupOfLast();
        for (let g = 0; g < group; g++) mine[g] = groups[g]! / k;
      }
    }
  });
  return out.result();
}

/** Index in `b` of the same-channel candidate overlapping `a[i]` most (at least `minIou`), or -1. */
function bestMatch(a: Candidates, i: number, b: Candidates, minIou: number): number {
  const ax1 = a.boxes[i * 4]!;
  const ay1 = a.boxes[i * 4 + 1]!;
  const ax2 = a.boxes[i * 4 + 2]!;
  const ay2 = a.boxes[i * 4 + 3]!;
  const areaA = Math.max(0, ax2 - ax1) * Math.max(0, ay2 - ay1);
  const channel = a.channels[i]!;
  let best = -1;
  let bestIou = minIou;
  for (let j = 0; j < b.count; j++) {
    if (b.channels[j] !== channel) continue;
    const bx1 = b.boxes[j * 4]!;
    const bx2 = b.boxes[j * 4 + 2]!;
    const iw = Math.min(ax2, bx2) - Math.max(ax1, bx1);
    if (iw <= 0) continue;
    const by1 = b.boxes[j * 4 + 1]!;
    const by2 = b.boxes[j * 4 + 3]!;
    const ih = Math.min(ay2, by2) - Math.max(ay1, by1);
    if (ih <= 0) continue;
    const inter = iw * ih;
    const iou = inter / (areaA + (bx2 - bx1) * (by2 - by1) - inter);
    if (iou >= bestIou) {
      bestIou = iou;
      best = j;
    }
  }
  return best;
}

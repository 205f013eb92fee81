/**
 * HOTA (Luiten et al., IJCV 2021), as TrackEval computes it: detection and association accuracy
 * at every IoU threshold alpha = 0.05, 0.10, ... 0.95, each frame's pairs chosen to favour
 * identities that are paired with the same track over the whole sequence, HOTA = sqrt(DetA
 * AssA) averaged over the thresholds. Pure: frames of objects in, figures out.
 */
import { iou } from '../engine/detection/nms.ts';
import { maxWeightAssignment } from '../engine/tracking/assignment.ts';
import type { FrameObjects } from './track-metrics.ts';

export interface HotaScore {
  hota: number;
  detA: number;
  assA: number;
}

const ALPHAS = Array.from({ length: 19 }, (_, i) => 0.05 * (i + 1));

export function scoreHota(gt: readonly FrameObjects[], hyp: readonly FrameObjects[]): HotaScore {
  const frames = [...new Set([...gt.map((f) => f.frame), ...hyp.map((f) => f.frame)])].sort(
    (a, b) => a - b,
  );
  const gtBy = new Map(gt.map((f) => [f.frame, f.objects]));
  const hypBy = new Map(hyp.map((f) => [f.frame, f.objects]));
  const key = (g: number, h: number) => `${g}:${h}`;
  const gtCount = new Map<number, number>();
  const hypCount = new Map<number, number>();
  const potential = new Map<string, number>();
  const sims = frames.map((frame) => {
    const g = gtBy.get(frame) ?? [];
    const h = hypBy.get(frame) ?? [];
    for (const o of g) gtCount.set(o.id, (gtCount.get(o.id) ?? 0) + 1);
    for (const o of h) hypCount.set(o.id, (hypCount.get(o.id) ?? 0) + 1);
    const sim = g.map((go) => h.map((ho) => iou(go.box, ho.box)));
    const rowSum = sim.map((r) => r.reduce((a, v) => a + v, 0));
    const colSum = h.map((_, j) => sim.reduce((a, r) => a + r[j]!, 0));
    g.forEach((go, i) =>
      h.forEach((ho, j) => {
        const s = sim[i]![j]!;
        if (s <= 0) return;
        const k = key(go.id, ho.id);
        potential.set(k, (potential.get(k) ?? 0) + s / (rowSum[i]! + colSum[j]! - s));
      }),
    );
    return { g, h, sim };
  });
  const alignment = (gid: number, hid: number) => {
    const p = potential.get(key(gid, hid)) ?? 0;
    return p / (gtCount.get(gid)! + hypCount.get(hid)! - p);
  };
  const tp = new Float64Array(ALPHAS.length);
  const matches = ALPHAS.map(() => new Map<string, number>());
  let gtDets = 0;
  let hypDets = 0;
  for (const { g, h, sim } of sims) {
    gtDets += g.length;
    hypDets += h.length;
    if (!g.length || !h.length) continue;
    const score = g.map((go, i) => h.map((ho, j) => alignment(go.id, ho.id) * sim[i]![j]!));
    maxWeightAssignment(score).forEach((j, i) => {
      if (j < 0) return;
      const s = sim[i]![j]!;
      ALPHAS.forEach((alpha, a) => {
        if (s < alpha - 1e-9) return;
        tp[a]!++;
        const k = key(g[i]!.id, h[j]!.id);
        matches[a]!.set(k, (matches[a]!.get(k) ?? 0) + 1);
      });
    });
  }
  let hota = 0;
  let detA = 0;
  let assA = 0;
  ALPHAS.forEach((_, a) => {
    const t = tp[a]!;
    const det = t / Math.max(1, gtDets + hypDets - t);
    let ass = 0;
    for (const [k, n] of matches[a]!) {
      const [gid, hid] = k.split(':').map(Number) as [number, number];
      ass += (n * n) / (gtCount.get(gid)! + hypCount.get(hid)! - n);
    }
    ass /= Math.max(1, t);
    detA += det;
    assA += ass;
    hota += Math.sqrt(det * ass);
  });
  const n = ALPHAS.length;
  return { hota: hota / n, detA: detA / n, assA: assA / n };
}

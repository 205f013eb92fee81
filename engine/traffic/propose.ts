/**
 * Proposes an entrance from where tracks appear and vanish: bees come out of the hive and go
 * back into it, so the densest cluster of track ends is where the entrance most likely is. The
 * result is a box (as a polygon) for the user to confirm or redraw, never used unasked.
 * Track ends on the first and last analysed frames are left out: the clip cut them, not the hive.
 */
import type { Entrance, Point, Track } from '../types.ts';
import { centreOf } from './count.ts';

export interface EntranceProposal {
  entrance: Entrance;
  /** Track starts and ends inside the proposed box, and of all considered. */
  trackEnds: number;
  of: number;
}

export interface ProposeOptions {
  /** Neighbourhood radius of a cluster, frame-relative (default 0.1). */
  radius?: number;
  /** Padding around the cluster's box, frame-relative (default 0.03). */
  padding?: number;
  /** Fewest track ends in the cluster to propose anything (default 3). */
  minEnds?: number;
}

export function proposeEntrance(
  tracks: readonly Track[],
  video: { width: number; height: number; lastFrame: number },
  options: ProposeOptions = {},
): EntranceProposal | null {
  const radius = options.radius ?? 0.1;
  const padding = options.padding ?? 0.03;
  const minEnds = options.minEnds ?? 3;
  const ends: Point[] = [];
  for (const t of tracks) {
    const first = t.boxes[0];
    const last = t.boxes.at(-1);
    if (first && first.frame > 0) ends.push(centreOf(first.box, video));
    if (last && last.frame < video.lastFrame) ends.push(centreOf(last.box, video));
  }
  const within = (a: Point) => ends.filter((b) => Math.hypot(a[0] - b[0], a[1] - b[1]) <= radius);
  let cluster: Point[] = [];
  for (const p of ends) {
    const around = within(p);
    if (around.length > cluster.length) cluster = around;
  }
  if (cluster.length < minEnds) return null;
  const xs = cluster.map((p) => p[0]);
  const ys = cluster.map((p) => p[1]);
  const clamp = (v: number) => Math.round(Math.min(1, Math.max(0, v)) * 1000) / 1000;
  const [x0, x1] = [clamp(Math.min(...xs) - padding), clamp(Math.max(...xs) + padding)];
  const [y0, y1] = [clamp(Math.min(...ys) - padding), clamp(Math.max(...ys) + padding)];
  return {
    entrance: {
      kind: 'polygon',
      points: [
        [x0, y0],
        [x1, y0],
        [x1, y1],
        [x0, y1],
      ],
    },
    trackEnds: cluster.length,
    of: ends.length,
  };
}

/**
 * Entrance traffic from a video's tracks: which insects went in, which came out.
 *
 * Each hit's box centre is placed on a side of the entrance (`entranceSide`). A track's passage is
 * its net change of side, so a bee hovering at the entrance and crossing back and forth counts
 * once at most, and a crossing counts only when the track clears the margin band on both sides:
 * - first seen in the field, last seen on the hive side: `in`; the reverse: `out`;
 * - hive, field, hive again within `loopMaxS` (an orientation flight, or a bee stepping out and
 *   back): a `loop`, neither in nor out; a longer excursion is an `out` and an `in`;
 * - field, hive, field: nothing (it never went in).
 * The tracker already bridges a miss of up to a second (`TRACK_MAX_GAP_S`); a bee lost for
 * longer right at the entrance comes back as a new track, so a track that ends near the
 * entrance is joined to one that starts near its end within `joinGapS` before any side is
 * judged. Two tracks both clearly on the hive side are not joined: that is one bee going in and
 * another coming out, the busiest moment of an entrance.
 */
import { HONEYBEE_CLASSES } from '../types.ts';
import type {
  Entrance,
  Point,
  ProductClass,
  Track,
  Traffic,
  TrafficCounts,
  TrafficEvent,
} from '../types.ts';
import { entranceDistance, entranceSide } from './entrance.ts';
import type { EntranceSide } from './entrance.ts';

export interface TrafficOptions {
  /** Half-width of the band a crossing must clear, frame-relative (default 0.03). */
  margin?: number;
  /** Longest gap, seconds, over which a track broken at the entrance is joined (default 2). */
  joinGapS?: number;
  /** How near the entrance, and each other, the two ends must be, frame-relative (default 0.08). */
  joinRadius?: number;
  /** Longest excursion from the hive counted as a loop, seconds (default 5). */
  loopMaxS?: number;
}

export const DEFAULT_TRAFFIC_OPTIONS: Required<TrafficOptions> = {
  margin: 0.03,
  joinGapS: 2,
  joinRadius: 0.08,
  loopMaxS: 5,
};

export interface TrafficVideo {
  /** Source size in pixels: the tracks' boxes are in source pixels. */
  width: number;
  height: number;
  sampleFps: number;
  durationS: number;
}

interface Hit {
  frame: number;
  point: Point;
  side: EntranceSide;
}

interface Chain {
  tracks: Track[];
  hits: Hit[];
}

export function countTraffic(
  tracks: readonly Track[],
  entrance: Entrance,
  video: TrafficVideo,
  options: TrafficOptions = {},
): Traffic {
  const opts = { ...DEFAULT_TRAFFIC_OPTIONS, ...options };
  const chains = joinBrokenTracks(
    tracks.filter((t) => t.boxes.length > 0).map((t) => chainOf(t, entrance, video, opts.margin)),
    entrance,
    video.sampleFps,
    opts,
  );
  const events = chains
    .flatMap((chain) => passages(chain, video.sampleFps, opts.loopMaxS))
    .sort((a, b) => a.frame - b.frame);

  const byClass: Partial<Record<ProductClass, TrafficCounts>> = {};
  for (const e of events) {
    const counts = (byClass[e.cls] ??= { in: 0, out: 0, loops: 0 });
    if (e.kind === 'loop') counts.loops++;
    else counts[e.kind]++;
  }
  const honeybees = (key: keyof TrafficCounts) =>
    HONEYBEE_CLASSES.reduce((sum, cls) => sum + (byClass[cls]?.[key] ?? 0), 0);
  const beesIn = honeybees('in');
  const beesOut = honeybees('out');
  const minutes = video.durationS / 60;
  return {
    entrance,
    beesIn,
    beesOut,
    netFlow: beesIn - beesOut,
    loops: honeybees('loops'),
    inPerMinute: minutes > 0 ? beesIn / minutes : 0,
    outPerMinute: minutes > 0 ? beesOut / minutes : 0,
    byClass,
    events,
  };
}

/** A box centre, frame-relative. */
export function centreOf(
  box: { x: number; y: number; width: number; height: number },
  video: { width: number; height: number },
): Point {
  return [(box.x + box.width / 2) / video.width, (box.y + box.height / 2) / video.height];
}

function chainOf(track: Track, entrance: Entrance, video: TrafficVideo, margin: number): Chain {
  const hits = track.boxes.map(({ frame, box }): Hit => {
    const point = centreOf(box, video);
    return { frame, point, side: entranceSide(entrance, point, margin) };
  });
  return { tracks: [track], hits };
}

/** Greedy joins, shortest gap first; each track end joins at most one track start. */
function joinBrokenTracks(
  chains: Chain[],
  entrance: Entrance,
  sampleFps: number,
  opts: Required<TrafficOptions>,
): Chain[] {
  const near = (hit: Hit) =>
    Math.abs(entranceDistance(entrance, hit.point, opts.margin) ?? Infinity) <= opts.joinRadius;
  const pairs: { a: number; b: number; gap: number; distance: number }[] = [];
  chains.forEach((ca, a) => {
    const end = ca.hits.at(-1)!;
    if (!near(end)) return;
    chains.forEach((cb, b) => {
      const start = cb.hits[0]!;
      const gap = start.frame - end.frame;
      if (gap <= 0 || gap / sampleFps > opts.joinGapS || !near(start)) return;
      if (end.side === 'hive' && start.side === 'hive') return;
      const distance = Math.hypot(start.point[0] - end.point[0], start.point[1] - end.point[1]);
      if (distance <= opts.joinRadius) pairs.push({ a, b, gap, distance });
    });
  });
  pairs.sort((p, q) => p.gap - q.gap || p.distance - q.distance);
  const next = new Map<number, number>();
  const joinedFrom = new Set<number>();
  for (const { a, b } of pairs) {
    if (next.has(a) || joinedFrom.has(b)) continue;
    next.set(a, b);
    joinedFrom.add(b);
  }
  const out: Chain[] = [];
  chains.forEach((_, head) => {
    if (joinedFrom.has(head)) return;
    const chain: Chain = { tracks: [], hits: [] };
    for (let i: number | undefined = head; i !== undefined; i = next.get(i)) {
      chain.tracks.push(...chains[i]!.tracks);
      chain.hits.push(...chains[i]!.hits);
    }
    out.push(chain);
  });
  return out;
}

interface Run {
  side: 'hive' | 'field';
  first: number;
  last: number;
}

function passages(chain: Chain, sampleFps: number, loopMaxS: number): TrafficEvent[] {
  const runs: Run[] = [];
  for (const { frame, side } of chain.hits) {
    // The band and the sides of a line's ends say nothing: the last clear side holds.
    if (side !== 'hive' && side !== 'field') continue;
    const run = runs.at(-1);
    if (run?.side === side) run.last = frame;
    else runs.push({ side, first: frame, last: frame });
  }
  if (runs.length < 2) return [];
  const first = runs[0]!;
  const last = runs.at(-1)!;
  const event = (kind: TrafficEvent['kind'], frame: number): TrafficEvent => ({
    kind,
    cls: classOf(chain.tracks),
    frame,
    timeS: frame / sampleFps,
    trackIds: chain.tracks.map((t) => t.id),
  });
  if (first.side === 'field' && last.side === 'hive') return [event('in', last.first)];
  if (first.side === 'hive' && last.side === 'field') return [event('out', last.first)];
  if (first.side === 'field') return [];
  const awayS = (last.first - first.last) / sampleFps;
  if (awayS <= loopMaxS) return [event('loop', last.first)];
  return [event('out', runs[1]!.first), event('in', last.first)];
}

/** A joined passage is of the class of its longest track. */
function classOf(tracks: readonly Track[]): ProductClass {
  return tracks.reduce((best, t) => (t.hits > best.hits ? t : best)).cls;
}

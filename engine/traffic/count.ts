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
 * entrance is joined to one that starts within `joinSizes` box sizes of its end, within
 * `joinGapS`, before any side is judged: a bee lost in the slit comes back where it went, and a
 * wider reach joined one bee's end to another's start among the bees crowding a slit. Two tracks
 * both clearly on the hive side are not joined: that is one bee going in and another coming
 * out, the busiest moment of an entrance.
 * A bee already at the entrance when the video starts, or still there when it ends, may be one
 * resting by the slit: whether it came out, or went in, is not shown, so a hive-side stretch
 * that touches the video's first or last sampled frame says nothing (the issue's own test: "a
 * track that ends inside the entrance after coming from outside").
 * A passage needs its track seen over `minPassageS`: a bee on two frames at a crowded entrance
 * says where it was, not where it went (docs/experiments/004).
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
  /** How near the entrance the two ends must be, frame-relative (default 0.08). */
  joinRadius?: number;
  /** How near each other the two ends must be, in box sizes (default 2). */
  joinSizes?: number;
  /**
   * Shortest track, seconds, that counts a passage: its hits span it, on as many sampled frames
   * (default 0.4: 3 frames at 5 fps).
   */
  minPassageS?: number;
  /** Longest excursion from the hive counted as a loop, seconds (default 5). */
  loopMaxS?: number;
}

export const DEFAULT_TRAFFIC_OPTIONS: Required<TrafficOptions> = {
  margin: 0.03,
  joinGapS: 2,
  joinRadius: 0.08,
  joinSizes: 2,
  minPassageS: 0.4,
  loopMaxS: 5,
};

export interface TrafficVideo {
  /** Source size in pixels: the tracks' boxes are in source pixels. */
  width: number;
  height: number;
  sampleFps: number;
  durationS: number;
  /**
   * The first and last sampled frame indices (default 0 and durationS * sampleFps - 1): a
   * hive-side stretch touching either is no evidence of a passage.
   */
  frames?: { first: number; last: number };
}

interface Hit {
  frame: number;
  point: Point;
  /** The box centre and size in source pixels (joins are judged in pixels). */
  px: { x: number; y: number; size: number };
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
  const edges = edgesOf(video);
  const events = chains
    .filter((chain) => seenLongEnough(chain, video.sampleFps, opts.minPassageS))
    .flatMap((chain) => passages(chain, video.sampleFps, opts.loopMaxS, edges))
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
    const px = {
      x: box.x + box.width / 2,
      y: box.y + box.height / 2,
      size: Math.sqrt(box.width * box.height),
    };
    return { frame, point, px, side: entranceSide(entrance, point, margin) };
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
      const size = Math.max((start.px.size + end.px.size) / 2, 1e-6);
      const distance = Math.hypot(start.px.x - end.px.x, start.px.y - end.px.y) / size;
      if (distance <= opts.joinSizes) pairs.push({ a, b, gap, distance });
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

/**
 * Seen over `minPassageS` on as many sampled frames as that spans: two hits either side of a
 * missed frame span 0.4 s at 5 fps, but they are still a bee seen twice.
 */
function seenLongEnough(chain: Chain, sampleFps: number, minPassageS: number): boolean {
  const spanS = (chain.hits.at(-1)!.frame - chain.hits[0]!.frame) / sampleFps;
  const frames = new Set(chain.hits.map((h) => h.frame)).size;
  return spanS >= minPassageS - 1e-9 && frames >= Math.round(minPassageS * sampleFps) + 1;
}

interface Run {
  side: 'hive' | 'field';
  first: number;
  last: number;
}

function edgesOf(video: TrafficVideo): { first: number; last: number } {
  return (
    video.frames ?? {
      first: 0,
      last: Math.max(0, Math.round(video.durationS * video.sampleFps) - 1),
    }
  );
}

function passages(
  chain: Chain,
  sampleFps: number,
  loopMaxS: number,
  edges: { first: number; last: number },
): TrafficEvent[] {
  const runs: Run[] = [];
  for (const { frame, side } of chain.hits) {
    // The band and the sides of a line's ends say nothing: the last clear side holds.
    if (side !== 'hive' && side !== 'field') continue;
    const run = runs.at(-1);
    if (run?.side === side) run.last = frame;
    else runs.push({ side, first: frame, last: frame });
  }
  // At the entrance from the first frame, or still there at the last: not seen coming out, or
  // going in. The track's own first and last hits decide (a band hit still shows the bee).
  if (runs[0]?.side === 'hive' && chain.hits[0]!.frame <= edges.first) runs.shift();
  if (runs.at(-1)?.side === 'hive' && chain.hits.at(-1)!.frame >= edges.last) runs.pop();
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

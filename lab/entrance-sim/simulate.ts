/**
 * Bees at an entrance with exact identities and crossings: each bee follows one behaviour's
 * script of keyframes (position, seen or not, walking or flying) at the render rate (30 fps),
 * and the truth (its box on every frame, when it went in or came out) is read off the script.
 *
 * Behaviours (weights settable, `BehaviourRates`):
 * - `enter`: lands on the board (appears within one sampled frame), walks to the slit, pauses
 *   there now and then, and vanishes into it;
 * - `leave`: appears at the slit, walks out, pauses, takes off (gone within a sampled frame);
 * - `walk`: lands away from the slit, wanders, takes off; with two outside sides it may walk
 *   over the slit from one to the other, which is no passage;
 * - `guard`: lands by the slit and stays there, turning and shuffling, then takes off;
 * - `loiter`: lands on the board, walks into the slit, sits there shuffling along it for 2-20 s
 *   and walks back out, then takes off: no passage, though it sat in the entrance strip. Its
 *   weight is fitted to the hand-counted run (hive frames 1124-1230), where 55 % of the labelled
 *   bees are in the strip (the scene without loiterers had 10 %; experiment 015);
 * - `loop`: comes out, takes off, flies orientation arcs in front of the entrance, lands and
 *   walks back in (a loop when back within `LOOP_MAX_S`, else an out and an in).
 * The scene holds `density` bees at once: each that finishes is replaced by a new one.
 */
import { seededRandom } from '../../engine/random.ts';
import { entranceSide } from '../../engine/traffic/entrance.ts';
import type { Box, Point, ProductClass } from '../../engine/types.ts';
import type { EntranceCamera } from './cameras.ts';

export const RENDER_FPS = 30;
/** A bee's labelled box, along its body: width over length. */
export const BEE_ASPECT = 0.55;
/** Out and back in within this is a loop, as the count and the hand tallies call it. */
export const LOOP_MAX_S = 5;

/** A bee that comes out or goes in this near the clip's start or end is not held to a count. */
const EDGE_S = 0.5;

export type Behaviour = 'enter' | 'leave' | 'walk' | 'guard' | 'loiter' | 'loop';
export type BehaviourRates = Record<Behaviour, number>;

export const DEFAULT_RATES: BehaviourRates = {
  enter: 3,
  leave: 3,
  walk: 1.5,
  guard: 1,
  loiter: 3,
  loop: 1,
};

export interface SimSettings {
  camera: EntranceCamera;
  /** Bees in the scene at once. */
  density: number;
  durationS: number;
  seed: number;
  rates?: Partial<BehaviourRates>;
  /** Share of `walk` bees that cross over the slit from one outside side to another. */
  crossOverShare?: number;
}

interface Key {
  t: number;
  x: number;
  y: number;
  flying: boolean;
}

export interface SimBee {
  id: number;
  cls: ProductClass;
  behaviour: Behaviour;
  lengthPx: number;
  /** Seen from keys[0].t to keys.at(-1).t, moving straight between keys. */
  keys: Key[];
  /** Which labelled crop draws it, and whether the crop is turned end for end (0 or pi). */
  sprite: number;
  spriteTurn: number;
}

export interface BeeState {
  id: number;
  cls: ProductClass;
  cx: number;
  cy: number;
  /** Heading, radians, in picture coordinates. */
  angle: number;
  /** Pixels per render frame (motion blur). */
  speed: number;
  flying: boolean;
  lengthPx: number;
  box: Box;
  sprite: number;
  spriteTurn: number;
}

export interface TrueCrossing {
  timeS: number;
  direction: 'in' | 'out' | 'loop';
  beeId: number;
  cls: ProductClass;
  /**
   * False when the bee is already there at the clip's start or still there at its end: where
   * it came from, or went, is not shown, and no count is held to it either way.
   */
  certain: boolean;
}

export interface Simulation {
  camera: EntranceCamera;
  durationS: number;
  /** Render frames (30 fps). */
  frames: number;
  bees: SimBee[];
  crossings: TrueCrossing[];
}

const CLASS_WEIGHTS: [ProductClass, number][] = [
  ['bee', 0.86],
  ['pollen', 0.09],
  ['drone', 0.05],
];

export function simulate(settings: SimSettings): Simulation {
  const { camera, density, durationS, seed } = settings;
  if (!(density >= 1 && durationS > 0)) throw new RangeError('density >= 1 and durationS > 0');
  const rnd = seededRandom(seed);
  const rates = { ...DEFAULT_RATES, ...settings.rates };
  const script = new Scripter(camera, rnd, settings.crossOverShare ?? 0.3);
  const bees: SimBee[] = [];
  // Start earlier, so that the clip opens on a scene already busy, mid-behaviour.
  const warmupS = 12;
  for (let slot = 0; slot < density; slot++) {
    let t = -warmupS + rnd() * warmupS;
    while (t < durationS) {
      const behaviour = pick(rnd, Object.entries(rates) as [Behaviour, number][]);
      const cls = pick(rnd, CLASS_WEIGHTS);
      const lengthPx = camera.beeLengthPx * (0.85 + 0.3 * rnd()) * (cls === 'drone' ? 1.25 : 1);
      const keys = script.run(behaviour, t, lengthPx);
      bees.push({
        id: bees.length + 1,
        cls,
        behaviour,
        lengthPx,
        keys,
        sprite: Math.floor(rnd() * 1e6),
        // Head first or tail first: a sprite's body axis is known, its direction is not.
        spriteTurn: rnd() < 0.5 ? 0 : Math.PI,
      });
      t = keys.at(-1)!.t + 0.2 + rnd() * 1.5;
    }
  }
  const frames = Math.round(durationS * RENDER_FPS);
  const sim: Simulation = { camera, durationS, frames, bees: [], crossings: [] };
  sim.bees = bees.filter((b) => b.keys.at(-1)!.t >= 0 && b.keys[0]!.t < durationS);
  sim.crossings = sim.bees.flatMap((b) => crossingsOf(sim, b)).sort((a, b) => a.timeS - b.timeS);
  return sim;
}

/** Every bee seen on render frame `frame` (30 fps). */
export function beesAt(sim: Simulation, frame: number): BeeState[] {
  const t = frame / RENDER_FPS;
  return sim.bees.flatMap((bee) => {
    const s = stateAt(bee, t);
    return s ? [s] : [];
  });
}

/** The render frames a sampler at `fps` takes (frame k at k / fps s). */
export function sampledFrames(sim: Simulation, fps: number): number[] {
  const n = Math.floor(sim.durationS * fps);
  return Array.from({ length: n }, (_, k) => Math.round((k * RENDER_FPS) / fps));
}

function stateAt(bee: SimBee, t: number): BeeState | undefined {
  const { keys } = bee;
  if (t < keys[0]!.t || t > keys.at(-1)!.t) return undefined;
  let i = 0;
  while (i < keys.length - 2 && keys[i + 1]!.t <= t) i++;
  const a = keys[i]!;
  const b = keys[i + 1] ?? a;
  const f = b.t > a.t ? (t - a.t) / (b.t - a.t) : 0;
  const cx = a.x + f * (b.x - a.x);
  const cy = a.y + f * (b.y - a.y);
  // Heading: along the segment; a bee standing still keeps the heading it walked in with.
  let j = i;
  while (
    j > 0 &&
    keys[j + 1] &&
    Math.hypot(keys[j + 1]!.x - keys[j]!.x, keys[j + 1]!.y - keys[j]!.y) < 1
  )
    j--;
  const ha = keys[j]!;
  const hb = keys[j + 1] ?? ha;
  const angle = Math.atan2(hb.y - ha.y, hb.x - ha.x) + (bee.id % 7) * 0.05;
  const speed = Math.hypot(b.x - a.x, b.y - a.y) / Math.max(b.t - a.t, 1e-6) / RENDER_FPS;
  const L = bee.lengthPx;
  const W = BEE_ASPECT * L;
  const c = Math.abs(Math.cos(angle));
  const s = Math.abs(Math.sin(angle));
  const w = L * c + W * s;
  const h = L * s + W * c;
  return {
    id: bee.id,
    cls: bee.cls,
    cx,
    cy,
    angle,
    speed,
    flying: a.flying,
    lengthPx: L,
    box: { x: cx - w / 2, y: cy - h / 2, width: w, height: h },
    sprite: bee.sprite,
    spriteTurn: bee.spriteTurn,
  };
}

/** The bee's passages, read off its positions at the render rate against the entrance. */
function crossingsOf(sim: Simulation, bee: SimBee): TrueCrossing[] {
  const { camera } = sim;
  const first = bee.keys[0]!.t;
  const last = bee.keys.at(-1)!.t;
  // Where it came from (or went) is shown only when that happens inside the clip.
  const seenOutsideBefore = (t: number) => Math.max(first, 0) <= t - 0.4;
  const certainOf = (timeS: number, direction: TrueCrossing['direction']) => {
    const vanished = last < sim.durationS - EDGE_S;
    const emerged = first >= EDGE_S;
    if (direction === 'out') return emerged && timeS <= sim.durationS - EDGE_S;
    if (direction === 'in') return vanished && seenOutsideBefore(timeS);
    return emerged && vanished;
  };
  const inside = (t: number) => {
    const s = stateAt(bee, t)!;
    const point: Point = [s.cx / camera.width, s.cy / camera.height];
    return entranceSide(camera.entrance, point, 0) === 'hive';
  };
  // Out: the first moment clear of the strip after coming out of it; in: the first moment
  // inside on the way in. Both only for bees that come out of, or vanish into, the slit.
  const out: number[] = [];
  const into: number[] = [];
  const startsInside = bee.behaviour === 'leave' || bee.behaviour === 'loop';
  const endsInside = bee.behaviour === 'enter' || bee.behaviour === 'loop';
  const step = 1 / RENDER_FPS;
  let was = inside(first);
  let lastEntry = was ? first : NaN;
  let sawOut = false;
  for (let t = first + step; t <= last + 1e-9; t += step) {
    const now = inside(Math.min(t, last));
    if (was && !now && startsInside && !sawOut) {
      out.push(t);
      sawOut = true;
    }
    if (!was && now) lastEntry = t;
    was = now;
  }
  if (endsInside && Number.isFinite(lastEntry)) into.push(lastEntry);
  const event = (timeS: number, direction: TrueCrossing['direction']): TrueCrossing => ({
    timeS,
    direction,
    beeId: bee.id,
    cls: bee.cls,
    certain: certainOf(timeS, direction),
  });
  const inClip = (t: number) => t >= 0 && t < sim.durationS;
  if (out.length && into.length && into[0]! - out[0]! <= LOOP_MAX_S) {
    return inClip(into[0]!) ? [event(into[0]!, 'loop')] : [];
  }
  return [
    ...out.filter(inClip).map((t) => event(t, 'out')),
    ...into.filter(inClip).map((t) => event(t, 'in')),
  ];
}

function pick<T>(rnd: () => number, weights: readonly [T, number][]): T {
  const total = weights.reduce((a, [, w]) => a + w, 0);
  let r = rnd() * total;
  for (const [v, w] of weights) {
    r -= w;
    if (r < 0) return v;
  }
  return weights.at(-1)![0];
}

/** Writes one bee's keyframes for a behaviour, in pixels and seconds. */
class Scripter {
  constructor(
    private readonly camera: EntranceCamera,
    private readonly rnd: () => number,
    private readonly crossOverShare: number,
  ) {}

  run(behaviour: Behaviour, t0: number, L: number): Key[] {
    const keys: Key[] = [];
    const side = this.side();
    const speed = L * (1 + 2.5 * this.rnd()); // 1-3.5 body lengths a second
    switch (behaviour) {
      case 'enter': {
        const s = this.slitPoint();
        this.land(keys, t0, this.outPoint(s, side, L, 1.3, this.camera.boardDepthBees), L);
        this.walk(keys, this.outPoint(s, side, L, 0.9, 1.1), speed, L, 0.25);
        this.walk(keys, s, speed, L, 0);
        break;
      }
      case 'leave': {
        const s = this.slitPoint();
        keys.push({ t: t0, x: s[0], y: s[1], flying: false });
        this.pause(keys, 0.6);
        this.walk(keys, this.outPoint(s, side, L, 1.3, this.camera.boardDepthBees), speed, L, 0.2);
        this.takeOff(keys, L);
        break;
      }
      case 'walk': {
        const a = this.outPoint(this.slitPoint(), side, L, 1.5, this.camera.boardDepthBees);
        const over = this.camera.outside.length > 1 && this.rnd() < this.crossOverShare;
        const to = over ? this.otherSide(side) : side;
        this.land(keys, t0, a, L);
        this.walk(
          keys,
          this.outPoint(this.slitPoint(), to, L, 1.5, this.camera.boardDepthBees),
          speed,
          L,
          0.2,
        );
        this.takeOff(keys, L);
        break;
      }
      case 'guard': {
        const s = this.slitPoint();
        const home = this.outPoint(s, side, L, 0.9, 1.6);
        this.land(keys, t0, home, L);
        const until = keys.at(-1)!.t + 4 + 20 * this.rnd();
        while (keys.at(-1)!.t < until) {
          const j: Point = [
            home[0] + (this.rnd() - 0.5) * 0.6 * L,
            home[1] + (this.rnd() - 0.5) * 0.3 * L,
          ];
          this.walk(keys, j, L * 0.8, L, 0.5);
        }
        this.takeOff(keys, L, side);
        break;
      }
      case 'loiter': {
        const s = this.slitPoint();
        const depth = this.camera.boardDepthBees;
        this.land(keys, t0, this.outPoint(s, side, L, 1.3, depth), L);
        const seat = this.outPoint(s, side, L, 0, 0.25);
        this.walk(keys, seat, speed, L, 0.1);
        const until = keys.at(-1)!.t + 2 + 18 * this.rnd();
        while (keys.at(-1)!.t < until) {
          // Shuffling along the slit, never out of the strip.
          const along = (this.rnd() - 0.5) * 0.6 * L;
          const across = (this.rnd() - 0.5) * 0.1 * L;
          const j: Point = [
            seat[0] - side[1] * along + side[0] * across,
            seat[1] + side[0] * along + side[1] * across,
          ];
          this.walk(keys, j, L * 0.6, L, 0.5);
        }
        this.walk(keys, this.outPoint(s, side, L, 1.3, depth), speed, L, 0.2);
        this.takeOff(keys, L);
        break;
      }
      case 'loop': {
        const s = this.slitPoint();
        keys.push({ t: t0, x: s[0], y: s[1], flying: false });
        this.walk(keys, this.outPoint(s, side, L, 1.2, 2), speed, L, 0.1);
        // Orientation arcs in front of the entrance, in sight.
        const arcs = 2 + Math.floor(3 * this.rnd());
        for (let i = 0; i < arcs; i++) {
          const p = this.outPoint(this.slitPoint(), side, L, 2, this.camera.boardDepthBees + 2);
          this.fly(keys, p, L * (8 + 8 * this.rnd()));
        }
        const back = this.slitPoint();
        this.fly(keys, this.outPoint(back, side, L, 1.2, 2), L * 8);
        keys.at(-1)!.flying = false;
        this.walk(keys, back, speed, L, 0);
        break;
      }
    }
    return keys;
  }

  private side(): Point {
    const sides = this.camera.outside;
    return sides[Math.floor(this.rnd() * sides.length)]!;
  }

  private otherSide(side: Point): Point {
    return this.camera.outside.find((n) => n !== side) ?? side;
  }

  private slitPoint(): Point {
    const [a, b] = this.camera.slit;
    const u = 0.04 + 0.92 * this.rnd();
    return [a[0] + u * (b[0] - a[0]), a[1] + u * (b[1] - a[1])];
  }

  /** A point `min`-`max` bee lengths out from `s` along the outside normal, kept in frame. */
  private outPoint(s: Point, n: Point, L: number, min: number, max: number): Point {
    const d = (min + (max - min) * this.rnd()) * L;
    const along = (this.rnd() - 0.5) * L;
    const x = s[0] + n[0] * d + n[1] * along;
    const y = s[1] + n[1] * d - n[0] * along;
    const { width, height } = this.camera;
    return [Math.min(width - L, Math.max(L, x)), Math.min(height - L / 2, Math.max(L / 2, y))];
  }

  /** Flies in from out of sight: a short blurred approach (under a 5 fps frame), then walks. */
  private land(keys: Key[], t0: number, at: Point, L: number): void {
    const a = this.rnd() * 2 * Math.PI;
    const from: Point = [at[0] + Math.cos(a) * 3 * L, at[1] + Math.sin(a) * 3 * L];
    keys.push({ t: t0, x: from[0], y: from[1], flying: true });
    keys.push({ t: t0 + 0.1 + 0.1 * this.rnd(), x: at[0], y: at[1], flying: false });
  }

  private takeOff(keys: Key[], L: number, away?: Point): void {
    const last = keys.at(-1)!;
    last.flying = false;
    // Forward, the way it walked (away from the slit for a bee that walked out).
    const before = keys.at(-2) ?? last;
    const heading = away
      ? Math.atan2(away[1], away[0])
      : Math.atan2(last.y - before.y, last.x - before.x);
    const a = heading + (this.rnd() - 0.5) * (Math.PI / 2);
    keys.push({ ...last, flying: true });
    keys.push({
      t: last.t + 0.1 + 0.1 * this.rnd(),
      x: last.x + Math.cos(a) * 3 * L,
      y: last.y + Math.sin(a) * 3 * L,
      flying: true,
    });
  }

  private pause(keys: Key[], most: number): void {
    const last = keys.at(-1)!;
    keys.push({ ...last, t: last.t + most * this.rnd() });
  }

  /** Walks to `to` through waypoints a body length apart, wobbling, pausing now and then. */
  private walk(keys: Key[], to: Point, speed: number, L: number, pauseShare: number): void {
    const from = keys.at(-1)!;
    const dist = Math.hypot(to[0] - from.x, to[1] - from.y);
    const steps = Math.max(1, Math.round(dist / L));
    for (let i = 1; i <= steps; i++) {
      const prev = keys.at(-1)!;
      const f = i / steps;
      const wobble = i < steps ? (this.rnd() - 0.5) * 0.5 * L : 0;
      const x = from.x + f * (to[0] - from.x) + wobble * ((from.y - to[1]) / Math.max(dist, 1));
      const y = from.y + f * (to[1] - from.y) + wobble * ((to[0] - from.x) / Math.max(dist, 1));
      const v = speed * (0.7 + 0.6 * this.rnd());
      const t = prev.t + Math.max(Math.hypot(x - prev.x, y - prev.y) / v, 1 / RENDER_FPS);
      keys.push({ t, x, y, flying: false });
      if (i < steps && this.rnd() < pauseShare) this.pause(keys, 1.5);
    }
  }

  private fly(keys: Key[], to: Point, speed: number): void {
    const prev = keys.at(-1)!;
    prev.flying = true;
    const t = prev.t + Math.max(Math.hypot(to[0] - prev.x, to[1] - prev.y) / speed, 0.1);
    keys.push({ t, x: to[0], y: to[1], flying: true });
  }
}

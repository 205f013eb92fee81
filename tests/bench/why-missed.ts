/**
 * Where the hand-counted passages the count misses are lost (docs/experiments/019): for each
 * passage of the six hive runs (tests/model/hive-crossings) that the product's tracker and count
 * miss, on the labelled boxes and on the shipped detector's, the first stage that loses it.
 *
 *   node bin/run-ts.mjs tests/bench/why-missed.ts [--data ../shared/datasets] [--no-real-model]
 *     [--variant product] [--verbose]
 *
 * The tallies give each passage's time and direction; the runs' notes (`hive-FIRST-LAST.md`) its
 * place along the slit (`x`, px). A bee is "near" a box whose centre lies within `NEAR_X` px of
 * that x and `NEAR_EDGE` px of the slit's line, on the frames around the hand time (`WINDOW`).
 * Causes, in order (the first that applies):
 *
 * - `no box`: no box near the bee (`[low boxes only]` is added to the cause found below when every
 *   box near it scores under the tracker's highScore);
 * - `timing`: a passage of the same direction counted near the bee, 1-3 s from the hand time;
 * - `loop`, `other way`: a loop, or the opposite direction, counted near the bee within 2 s
 *   (events paired with another hand passage are left out of these three);
 * - then the product's rules relaxed one at a time, cumulatively, until the passage is found
 *   (the passage paired, as `scoreCrossings` pairs, with an event on a track near the bee):
 *   `count: minPassageS` (0), `count: loop` (loopMaxS 0: a loop read as an out and an in),
 *   `count: first/last frame` (a hive stretch touching the run's first or last frame counts),
 *   `tracker: countScore` (off), `tracker: weak start` (weakStartHits = minHits),
 *   `tracker: minHits` (1);
 * - still missed with all relaxed: `no track near` (boxes never linked near the bee), or
 *   `track, no side change` (a track near the bee that the count reads as no passage: every hit
 *   on one side, or in the margin band, or joined to another that undoes it).
 *
 * The detector's boxes are cached under tmp/run-detections/ (`cachedRunDetections`).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  buildLabelMap,
  countTraffic,
  DEFAULT_MODEL_PATH,
  loadModelCard,
  readDataset,
  Tracker,
  trackerOptionsFor,
} from '../../engine/index.ts';
import type { Detection, Track, TrafficEvent } from '../../engine/index.ts';
import type { TrackerOptions } from '../../engine/tracking/tracker.ts';
import type { TrafficOptions } from '../../engine/traffic/count.ts';
import { makeDetection } from '../../engine/detection/detection.ts';
import { entranceSide } from '../../engine/traffic/entrance.ts';
import {
  handCountedRuns,
  HAND_COUNTED_DIR,
  HAND_COUNTED_FPS,
  HIVE_FRAME,
} from '../../lab/index.ts';
import type { HandCountedRun } from '../../lab/index.ts';
import { VARIANTS } from '../../lab/entrance-sim/index.ts';
import { cachedRunDetections } from '../support/clip-cache.ts';
import { parseArgs } from './bench-support.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const args = parseArgs();
const datasets = path.resolve(args.get('data') ?? path.join(ROOT, '../shared/datasets'));
const variantName = args.get('variant') ?? 'product';
const variant = VARIANTS[variantName];
if (!variant) throw new Error(`--variant: one of ${Object.keys(VARIANTS).join(', ')}`);
const fps = HAND_COUNTED_FPS;
const { width, height } = HIVE_FRAME;
/** The slit's line across the hive frame, px (README.md of the runs). */
const SLIT: [[number, number], [number, number]] = [
  [343, 550],
  [3410, 715],
];
/** A box is near the bee when its centre is this close along the slit, px. */
const NEAR_X = 250;
/** ... and this close across it, px (a bee taking off is seen up to ~400 px above it). */
const NEAR_EDGE = 450;
/** Frames around the hand frame looked at: a passage's bee is seen before its time, and after. */
const WINDOW = { before: 4, after: 2 };
/** The tracker's default highScore: boxes under it never start an ordinary track. */
const HIGH_SCORE = 0.4;

interface Passage {
  run: string;
  timeS: number;
  frame: number;
  direction: string;
  xs: number[];
}
type Frames = { index: number; detections: Detection[] }[];

const card = await loadModelCard(DEFAULT_MODEL_PATH);
const display = { score: card.thresholds.score, perClass: card.thresholds.perClass ?? {} };
const dataset = await readDataset(path.join(datasets, 'hive-entrance'), buildLabelMap());
if (dataset.kind !== 'boxes') throw new Error('hive-entrance is not a box dataset');
const runs = await handCountedRuns(dataset.images);

const feeds: [string, (run: HandCountedRun) => Promise<Frames>][] = [
  [
    'labels',
    (run) =>
      Promise.resolve(
        run.sequence.frames.map((f, index) => ({
          index,
          detections: f.boxes.map((b) => makeDetection(b.cls, 0.9, b.box)),
        })),
      ),
  ],
];
if (!args.has('no-real-model')) feeds.push(['model', modelFrames]);

for (const [feed, framesOf] of feeds) {
  const causes = new Map<string, string[]>();
  const rows: string[] = [];
  for (const run of runs) {
    const frames = await framesOf(run);
    const passages = passagesOf(run);
    const product = traffic(run, frames, {}, {});
    const paired = pairs(product.events, passages);
    const taken = new Set(paired.values());
    // An event paired with another hand passage is that bee's: it explains nothing here.
    const free = { ...product, events: product.events.filter((e) => !taken.has(e)) };
    for (const p of passages.filter((p) => !paired.has(p))) {
      const cause = causeOf(p, passages, run, frames, free);
      const key = `${p.direction} ${cause}`;
      causes.set(key, [...(causes.get(key) ?? []), `${run.clip}@${p.timeS}`]);
      rows.push(
        `${run.clip}\t${p.timeS}\t${p.direction}\t${p.xs.join('/')}\t${seen(p, frames)}\t${cause}`,
      );
    }
  }
  console.log(`\n${feed} feed (variant ${variantName}): passages missed, by cause`);
  for (const [key, list] of [...causes].sort()) console.log(`${list.length}\t${key}`);
  if (args.has('verbose')) for (const r of rows) console.log(r);
}

/** The run's passages with their place, from its notes' tally table (same rows as the csv). */
function passagesOf(run: HandCountedRun): Passage[] {
  const text = readFileSync(path.join(HAND_COUNTED_DIR, `${run.clip}.md`), 'utf8');
  const rows = text
    .split('\n')
    .filter((l) => /^\|\s*[\d.]+\s*\|\s*\d+\s*\|\s*(in|out|loop)\s*\|/.test(l))
    .map((l) => l.split('|').map((c) => c.trim()));
  const passages = rows.map(([, t, , dir, x]): Passage => ({
    run: run.clip,
    timeS: Number(t),
    frame: Math.round(Number(t) * fps),
    direction: dir!,
    xs: (x!.match(/\d{3,4}/g) ?? []).map(Number),
  }));
  const key = (d: string, t: number) => `${d}@${t.toFixed(1)}`;
  const fromNotes = passages.map((p) => key(p.direction, p.timeS)).sort();
  const fromTally = run.labels.map((l) => key(l.direction, l.timeS)).sort();
  if (fromNotes.join() !== fromTally.join()) {
    throw new Error(`${run.clip}: the notes' tally differs from the csv`);
  }
  return passages.filter((p) => p.direction !== 'loop');
}

/** The variant's tracker and count over `frames`, with some rules relaxed. */
function traffic(
  run: HandCountedRun,
  frames: Frames,
  tracker: TrackerOptions,
  count: TrafficOptions,
  edges = true,
): { events: TrafficEvent[]; tracks: Track[] } {
  const t = new Tracker({
    ...trackerOptionsFor(fps, display, card.thresholds.trackScore),
    ...variant!.tracker?.({ fps, entrance: run.entrance, width, height }),
    ...tracker,
  });
  for (const f of frames) t.update(f.index, f.detections);
  const tracks = t.finish();
  const video = {
    width,
    height,
    sampleFps: fps,
    durationS: frames.length / fps,
    // Without `edges`, a hive-side stretch touching the run's first or last frame still counts.
    frames: edges
      ? { first: frames[0]!.index, last: frames.at(-1)!.index }
      : { first: -Infinity, last: Infinity },
  };
  const { events } = countTraffic(tracks, run.entrance, video, { ...variant!.traffic, ...count });
  return { events, tracks };
}

/** The hand passages and events `scoreCrossings` pairs (greedy in time, 1 s), per direction. */
function pairs(
  events: readonly TrafficEvent[],
  all: readonly Passage[],
): Map<Passage, TrafficEvent> {
  const paired = new Map<Passage, TrafficEvent>();
  for (const direction of ['in', 'out']) {
    const labelled = all.filter((q) => q.direction === direction).sort((a, b) => a.timeS - b.timeS);
    const counted = events.filter((e) => e.kind === direction).sort((a, b) => a.timeS - b.timeS);
    let j = 0;
    for (const e of counted) {
      while (j < labelled.length && labelled[j]!.timeS < e.timeS - 1) j++;
      if (j < labelled.length && Math.abs(labelled[j]!.timeS - e.timeS) <= 1) {
        paired.set(labelled[j++]!, e);
      }
    }
  }
  return paired;
}

function near(p: Passage, box: Detection['box'], nearX = NEAR_X, nearEdge = NEAR_EDGE): boolean {
  const cx = box.x + box.width / 2;
  const cy = box.y + box.height / 2;
  const lo = Math.min(...p.xs) - nearX;
  const hi = Math.max(...p.xs) + nearX;
  if (cx < lo || cx > hi) return false;
  const [[x1, y1], [x2, y2]] = SLIT;
  const across =
    Math.abs((x2 - x1) * (cy - y1) - (y2 - y1) * (cx - x1)) / Math.hypot(x2 - x1, y2 - y1);
  return across <= nearEdge;
}

/** Per frame of the window, the best score of a box close to the bee's place ('.' none). */
function seen(p: Passage, frames: Frames): string {
  return frames
    .filter((f) => inWindow(p, f.index))
    .map((f) => {
      const close = f.detections.filter((d) => near(p, d.box, 150, 250));
      return close.length
        ? String(Math.min(9, Math.floor(10 * Math.max(...close.map((d) => d.score)))))
        : '.';
    })
    .join('');
}

function inWindow(p: Passage, frame: number): boolean {
  return frame >= p.frame - WINDOW.before && frame <= p.frame + WINDOW.after;
}

/** An event near the bee: one of its tracks has a hit near it within `s` seconds of the event. */
function eventNear(p: Passage, e: TrafficEvent, tracks: Track[]): boolean {
  return tracks
    .filter((t) => e.trackIds.includes(t.id))
    .some((t) => t.boxes.some((b) => Math.abs(b.frame - e.frame) <= 3 && near(p, b.box)));
}

function causeOf(
  p: Passage,
  passages: Passage[],
  run: HandCountedRun,
  frames: Frames,
  product: { events: TrafficEvent[]; tracks: Track[] },
): string {
  const boxes = frames
    .filter((f) => inWindow(p, f.index))
    .flatMap((f) => f.detections.filter((d) => near(p, d.box)));
  if (boxes.length === 0) return 'no box';
  const cause = stageOf(p, passages, run, frames, product);
  // Boxes the tracker's first stage never sees: only a weak track may follow them.
  return boxes.every((d) => d.score < HIGH_SCORE) ? `${cause} [low boxes only]` : cause;
}

function stageOf(
  p: Passage,
  passages: Passage[],
  run: HandCountedRun,
  frames: Frames,
  product: { events: TrafficEvent[]; tracks: Track[] },
): string {
  const nearEvents = product.events.filter((e) => eventNear(p, e, product.tracks));
  const dt = (e: TrafficEvent) => Math.abs(e.timeS - p.timeS);
  if (nearEvents.some((e) => e.kind === p.direction && dt(e) > 1 && dt(e) <= 3)) return 'timing';
  if (nearEvents.some((e) => e.kind === 'loop' && dt(e) <= 2)) return 'loop';
  if (nearEvents.some((e) => e.kind !== p.direction && e.kind !== 'loop' && dt(e) <= 2)) {
    return 'other way';
  }
  const steps: [string, TrackerOptions, TrafficOptions, boolean][] = [
    ['count: minPassageS', {}, { minPassageS: 0 }, true],
    ['count: loop', {}, { minPassageS: 0, loopMaxS: 0 }, true],
    ['count: first/last frame', {}, { minPassageS: 0, loopMaxS: 0 }, false],
    ['tracker: countScore', { countScore: () => 0 }, { minPassageS: 0, loopMaxS: 0 }, false],
    [
      'tracker: weak start',
      { countScore: () => 0, weakStartHits: 2 },
      { minPassageS: 0, loopMaxS: 0 },
      false,
    ],
    [
      'tracker: minHits',
      { countScore: () => 0, weakStartHits: 1, minHits: 1 },
      { minPassageS: 0, loopMaxS: 0 },
      false,
    ],
  ];
  let last = product;
  for (const [name, tracker, count, edges] of steps) {
    last = traffic(run, frames, tracker, count, edges);
    const e = pairs(last.events, passages).get(p);
    if (e && eventNear(p, e, last.tracks)) return name;
  }
  const tracks = last.tracks.filter((t) =>
    t.boxes.some((b) => inWindow(p, b.frame) && near(p, b.box)),
  );
  if (tracks.length === 0) return 'no track near';
  const sides = new Set(
    tracks.flatMap((t) =>
      t.boxes.map((b) =>
        entranceSide(
          run.entrance,
          [(b.box.x + b.box.width / 2) / width, (b.box.y + b.box.height / 2) / height],
          0.03,
        ),
      ),
    ),
  );
  if (args.has('verbose')) {
    const letter = { hive: 'H', field: 'F', band: 'b', away: 'a' } as const;
    const first = frames[0]!.index;
    const lastFrame = frames.at(-1)!.index;
    const closeTracks = product.tracks.filter((t) =>
      t.boxes.some((b) => inWindow(p, b.frame) && near(p, b.box, 150, 250)),
    );
    for (const t of closeTracks) {
      const sideString = t.boxes
        .map(
          (b) =>
            letter[
              entranceSide(
                run.entrance,
                [(b.box.x + b.box.width / 2) / width, (b.box.y + b.box.height / 2) / height],
                0.03,
              )
            ],
        )
        .join('');
      const edge = `${t.firstFrame === first ? '|' : ''}${t.firstFrame}-${t.lastFrame}${t.lastFrame === lastFrame ? '|' : ''}`;
      const xs = t.boxes.map((b) => Math.round(b.box.x + b.box.width / 2)).join(',');
      console.log(
        `    ${run.clip} ${p.timeS} ${p.direction}: track ${t.id} ${edge} ${sideString} x ${xs}`,
      );
    }
  }
  return `track, no side change (${[...sides].sort().join('+')})`;
}

/** The shipped detector's boxes on the run's clip, as `hivesight eval` sees them (cached). */
function modelFrames(run: HandCountedRun): Promise<Frames> {
  return cachedRunDetections(run.clip, run.sequence.images, card.version, fps);
}

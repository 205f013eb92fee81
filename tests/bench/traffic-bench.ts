/**
 * The synthetic entrance benchmark (issue 56): clips of simulated bees with exact identities and
 * crossings (`lab/entrance-sim`), on both cameras, at several densities and sample rates, fed to
 * the tracker and the count two ways: the noise model fitted to the detector's errors (cheap),
 * and the real detector on rendered frames (costly, a few short clips). Prints one table: HOTA,
 * IDF1, MOTA, unique-count error, and per direction the crossings' precision, recall and count
 * error (signed).
 *
 *   npm run bench:traffic -- [--data ../shared/datasets] [--seconds 60] [--clips 3] [--seed 1]
 *     [--densities 5,15,40] [--fps 5,10,15] [--cameras hive-entrance,backyard-entrance]
 *     [--detector-seconds 12] [--detector-clips 1] [--detector-densities 15]
 *     [--detector-fps 5,10] [--no-detector] [--no-real] [--no-real-model]
 *     [--variant product] [--write-confidence] [--crop] [--crop-pad 4] [--product]
 *     [--product-fps 5,10]
 *
 * `near` is honeybees shown near the entrance per frame, as the product measures a video
 * (`entranceDensity`). `--write-confidence` writes the noise feed's crossing precision and recall
 * per density and rate, both cameras pooled, to engine/traffic/confidence-table.ts, which the
 * traffic card and the history read a video's count against: run it again after a tracker change.
 *
 * `--crop` adds, for each rate above 5 fps, a `noise+crop` row: whole frames at 5 fps and, between
 * them, only the boxes inside the entrance crop (`traffic/entrance-rate.ts`), as the product
 * analyses a video with an entrance (experiment 016); `--crop-pad` sets its padding in bee lengths.
 *
 * `--product` adds the product's own count: clips rendered at `--product-fps` (and the
 * detector feed's seconds, clips and first density) analysed by the engine with the camera's
 * entrance set, at the default sample rate; a 10 fps clip then has its traffic counted at the
 * entrance rate, a 5 fps one at 5 fps. Crossings only (the traffic tracker's tracks are not kept).
 *
 * Last, the hand-counted real runs (`tests/model/hive-crossings`: runs of consecutive hive frames
 * at 5 fps, counted by hand): their labelled boxes, and the shipped detector's on each run encoded
 * as a clip, fed to the same tracker and count and scored against the tallies, per run and
 * together, so that a change the synthetic clips like is checked on real truth (`--no-real`
 * leaves both out, `--no-real-model` the detector's: encoding a clip the first time takes
 * minutes).
 *
 * Seeded (clips `--seed` to `--seed` + `--clips` - 1): the same flags give the same table; other
 * seeds give fresh clips, to confirm a choice made on the first ones. Nothing rendered is kept. The detector feed needs
 * `../shared/datasets` (backgrounds and bees are cut from the labelled frames) and skips with a
 * message without it.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  buildLabelMap,
  countTraffic,
  createEngine,
  DEFAULT_MODEL_PATH,
  loadModelCard,
  readDataset,
  scoreCrossings,
  Tracker,
  trackerOptionsFor,
} from '../../engine/index.ts';
import type { Detection } from '../../engine/index.ts';
import { makeDetection } from '../../engine/detection/detection.ts';
import { crowdingOf } from '../../engine/traffic/confidence.ts';
import type { ConfidenceBand, ConfidenceTable } from '../../engine/traffic/confidence.ts';
import { entranceDensity } from '../../engine/traffic/density.ts';
import {
  ENTRANCE_CROP_BEE_LENGTHS,
  entranceCrop,
  entranceStep,
  withinCrop,
} from '../../engine/traffic/entrance-rate.ts';
import { handCountedRuns, HAND_COUNTED_FPS, HIVE_FRAME, totalScore } from '../../lab/index.ts';
import type { HandCountedRun } from '../../lab/index.ts';
import { analyseFrameClip } from '../support/clip-cache.ts';
import {
  CAMERAS,
  countErrorOf,
  detectorDetections,
  loadScene,
  noiseFeed,
  precisionOf,
  productTraffic,
  recallOf,
  scoreClip,
  scoreSimCrossings,
  simulate,
  sumCrossings,
  VARIANTS,
} from '../../lab/entrance-sim/index.ts';
import type {
  CameraName,
  ClipScore,
  CrossingScores,
  DirectionScore,
  Feed,
  Simulation,
  Variant,
} from '../../lab/entrance-sim/index.ts';
import { parseArgs } from './bench-support.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const args = parseArgs();
const list = (name: string, fallback: string) =>
  (args.get(name) ?? fallback).split(',').filter(Boolean);
const numbers = (name: string, fallback: string) => list(name, fallback).map(Number);
const num = (name: string, fallback: number) => Number(args.get(name) ?? fallback);

const datasets = path.resolve(args.get('data') ?? path.join(ROOT, '../shared/datasets'));
const cameras = list('cameras', 'hive-entrance,backyard-entrance') as CameraName[];
const variantName = args.get('variant') ?? 'product';
const variant: Variant | undefined = VARIANTS[variantName];
if (!variant) throw new Error(`--variant: one of ${Object.keys(VARIANTS).join(', ')}`);
const card = await loadModelCard(DEFAULT_MODEL_PATH);
const display = { score: card.thresholds.score, perClass: card.thresholds.perClass ?? {} };
const trackerFor = (fps: number, name: CameraName) => {
  const { entrance, width, height } = CAMERAS[name];
  return {
    ...trackerOptionsFor(fps, display, card.thresholds.trackScore),
    ...variant.tracker?.({ fps, entrance, width, height }),
  };
};

interface Row {
  camera: string;
  feed: string;
  density: number;
  fps: number;
  scores: ClipScore[];
  /** Per clip: honeybees shown near the entrance per frame (`entranceDensity`). */
  near: number[];
}
const rows: Row[] = [];
/** Per feed, the real runs' passages missed and extra, all runs together. */
const realWrong: string[] = [];

/** `feed`, keeping each frame's boxes shown at the card's thresholds, as a video's frames are. */
function measured(feed: Feed): { feed: Feed; frames: { detections: Detection[] }[] } {
  const frames: { detections: Detection[] }[] = [];
  const shown = (d: Detection) => d.score >= (display.perClass[d.cls] ?? display.score);
  return {
    frames,
    feed: async (k, bees) => {
      const detections = await feed(k, bees);
      frames[k] = { detections: detections.filter(shown) };
      return detections;
    },
  };
}
/** The whole frame's rate when the entrance is analysed faster (the product's default). */
const WHOLE_FPS = 5;
/** `feed` at `fps`, keeping only the entrance crop's boxes between the 5 fps whole frames. */
function cropped(feed: Feed, sim: Simulation, fps: number): Feed {
  const step = entranceStep(WHOLE_FPS, fps);
  const crop = entranceCrop(
    sim.camera.entrance,
    sim.camera,
    sim.camera.beeLengthPx,
    num('crop-pad', ENTRANCE_CROP_BEE_LENGTHS),
  );
  return async (k, bees) => {
    const detections = await feed(k, bees);
    return k % step === 0 ? detections : withinCrop(detections, crop, sim.camera);
  };
}
const nearOf = (sim: Simulation, frames: { detections: Detection[] }[]) =>
  entranceDensity(frames, sim.camera.entrance, sim.camera).meanNear;

// The noise feed: every camera, density and rate, `--clips` seeds each.
const seconds = num('seconds', 60);
const clips = num('clips', 3);
const firstSeed = num('seed', 1);
for (const name of cameras) {
  for (const density of numbers('densities', '5,15,40')) {
    for (const fps of numbers('fps', '5,10,15')) {
      const scores: ClipScore[] = [];
      const near: number[] = [];
      for (let seed = firstSeed; seed < firstSeed + clips; seed++) {
        const sim = simulate({ camera: CAMERAS[name], density, durationS: seconds, seed });
        const feed = measured(noiseFeed(sim, 1000 + seed));
        scores.push(
          await scoreClip(sim, fps, feed.feed, {
            tracker: trackerFor(fps, name),
            ...(variant.traffic ? { traffic: variant.traffic } : {}),
          }),
        );
        near.push(nearOf(sim, feed.frames));
      }
      rows.push({ camera: name, feed: 'noise', density, fps, scores, near });
      console.error(line(rows.at(-1)!));
      if (args.has('crop') && fps > WHOLE_FPS) {
        const cropScores: ClipScore[] = [];
        for (let seed = firstSeed; seed < firstSeed + clips; seed++) {
          const sim = simulate({ camera: CAMERAS[name], density, durationS: seconds, seed });
          const feed = cropped(noiseFeed(sim, 1000 + seed), sim, fps);
          cropScores.push(
            await scoreClip(sim, fps, feed, {
              tracker: trackerFor(fps, name),
              ...(variant.traffic ? { traffic: variant.traffic } : {}),
            }),
          );
        }
        rows.push({ camera: name, feed: 'noise+crop', density, fps, scores: cropScores, near });
        console.error(line(rows.at(-1)!));
      }
    }
  }
}

// The detector feed: rendered frames through the engine, a few short clips.
if (args.has('no-detector')) {
  console.error('detector feed: left out (--no-detector)');
} else if (!existsSync(datasets)) {
  console.error(`detector feed: SKIP, ${datasets} is absent (the scenes are cut from it)`);
} else {
  const engine = await createEngine({ threads: 2, limits: { timeoutMs: 1_800_000 } });
  for (const name of cameras) {
    const scene = await loadScene(CAMERAS[name], datasets);
    for (const density of numbers('detector-densities', '15')) {
      for (const fps of numbers('detector-fps', '5,10')) {
        const scores: ClipScore[] = [];
        const near: number[] = [];
        for (let seed = 1; seed <= num('detector-clips', 1); seed++) {
          const camera = CAMERAS[name];
          const sim = simulate({ camera, density, durationS: num('detector-seconds', 12), seed });
          const frames = await detectorDetections(sim, fps, scene, engine);
          const feed = measured((k) => frames[k]!);
          scores.push(
            await scoreClip(sim, fps, feed.feed, {
              tracker: trackerFor(fps, name),
              ...(variant.traffic ? { traffic: variant.traffic } : {}),
            }),
          );
          near.push(nearOf(sim, feed.frames));
        }
        rows.push({ camera: name, feed: 'detector', density, fps, scores, near });
        console.error(line(rows.at(-1)!));
      }
    }
  }
}

// The product path: rendered clips analysed with the camera's entrance (experiment 016).
const product: string[] = [];
if (args.has('product')) {
  if (!existsSync(datasets)) {
    console.error(`product path: SKIP, ${datasets} is absent (the scenes are cut from it)`);
  } else {
    const engine = await createEngine({ threads: 2, limits: { timeoutMs: 1_800_000 } });
    for (const name of cameras) {
      const camera = CAMERAS[name];
      const scene = await loadScene(camera, datasets);
      for (const fps of numbers('product-fps', '5,10')) {
        const scores: CrossingScores[] = [];
        let seconds = 0;
        let rate = 0;
        for (let seed = 1; seed <= num('detector-clips', 1); seed++) {
          const durationS = num('detector-seconds', 12);
          const density = numbers('detector-densities', '15')[0]!;
          const sim = simulate({ camera, density, durationS, seed });
          const { traffic, analysisS } = await productTraffic(sim, fps, scene, engine);
          scores.push(scoreSimCrossings(traffic.events, sim.crossings));
          seconds += analysisS;
          rate = traffic.sampleFps ?? 0;
        }
        const c = sumCrossings(scores);
        const dir = (d: typeof c.in) => [
          precisionOf(d).toFixed(2),
          recallOf(d).toFixed(2),
          `${countErrorOf(d) >= 0 ? '+' : ''}${(100 * countErrorOf(d)).toFixed(0)}`,
        ];
        product.push(
          [name, fps, rate, scores.length, seconds.toFixed(1), ...dir(c.in), ...dir(c.out)].join(
            '\t',
          ),
        );
        console.error(product.at(-1));
      }
    }
    await engine.detector.close();
  }
}

// The hand-counted real run: labelled boxes through the tracker and the count.
const realLines = args.has('no-real') ? [] : await realRun();

console.log(`variant ${variantName}: ${variant.description}`);
console.log(
  [
    'camera',
    'feed',
    'bees',
    'fps',
    'near',
    'clips',
    'HOTA',
    'IDF1',
    'MOTA',
    'ids_err%',
    'in_P',
    'in_R',
    'in_err%',
    'out_P',
    'out_R',
    'out_err%',
    'in/out_true',
  ].join('\t'),
);
for (const row of rows) console.log(line(row));
for (const l of realLines) console.log(l);
for (const l of f1Lines(rows.filter((r) => r.feed === 'noise'))) console.log(l);
for (const l of realWrong) console.log(l);
if (product.length > 0) {
  console.log('\nproduct path: the clip rendered at clip_fps, analysed with the entrance set');
  console.log(
    'camera\tclip_fps\ttraffic_fps\tclips\tanalysis_s\tin_P\tin_R\tin_err%\tout_P\tout_R\tout_err%',
  );
  for (const line of product) console.log(line);
}
if (args.has('write-confidence')) writeConfidence(rows.filter((r) => r.feed === 'noise'));

/**
 * The hand-counted runs (`lab/hand-counted.ts`) twice: their labelled boxes, and the shipped
 * detector's boxes on each run encoded as a 5 fps clip (as `hivesight eval` sees it; clips are
 * cached under tmp/clip-cache), each through the variant's tracker and count. One line per run,
 * then all runs' passages together.
 */
async function realRun(): Promise<string[]> {
  const hive = path.join(datasets, 'hive-entrance');
  if (!existsSync(hive)) {
    console.error(`real runs: SKIP, ${hive} is absent`);
    return [];
  }
  const fps = HAND_COUNTED_FPS;
  const { width, height } = HIVE_FRAME;
  const dataset = await readDataset(hive, buildLabelMap());
  if (dataset.kind !== 'boxes') throw new Error('hive-entrance is not a box dataset');
  const runs = await handCountedRuns(dataset.images);
  const score = (
    run: HandCountedRun,
    frames: { index: number; detections: Detection[] }[],
  ): CrossingScores => {
    const tracker = new Tracker({
      ...trackerOptionsFor(fps, display, card.thresholds.trackScore),
      ...variant!.tracker?.({ fps, entrance: run.entrance, width, height }),
    });
    for (const f of frames) tracker.update(f.index, f.detections);
    const traffic = countTraffic(
      tracker.finish(),
      run.entrance,
      {
        width,
        height,
        sampleFps: fps,
        durationS: frames.length / fps,
        frames: { first: frames[0]!.index, last: frames.at(-1)!.index },
      },
      variant!.traffic,
    );
    return scoreCrossings(traffic.events, run.labels, 1);
  };
  const feedLines = (feed: string, scores: CrossingScores[]) => {
    const all = sumCrossings(scores);
    const missed = (d: DirectionScore) => d.labelled - d.matched;
    const extra = (d: DirectionScore) => d.counted - d.matched;
    realWrong.push(
      `hive-real ${feed}: in missed ${missed(all.in)} extra ${extra(all.in)}, out missed ` +
        `${missed(all.out)} extra ${extra(all.out)}, wrong ` +
        `${missed(all.in) + extra(all.in) + missed(all.out) + extra(all.out)}`,
    );
    return [
      ...scores.map((s, i) => realLine(runs[i]!.clip, feed, s)),
      realLine('hive-real', feed, all),
    ];
  };
  const lines = feedLines(
    'labels',
    runs.map((run) =>
      score(
        run,
        run.sequence.frames.map((f, index) => ({
          index,
          detections: f.boxes.map((b) => makeDetection(b.cls, 0.9, b.box)),
        })),
      ),
    ),
  );
  if (args.has('no-real-model')) return lines;
  const engine = await createEngine({ threads: 2, limits: { timeoutMs: 1_800_000 } });
  const model: CrossingScores[] = [];
  for (const run of runs) {
    model.push(score(run, await analyseFrameClip(engine, run.sequence.images, fps)));
  }
  return [...lines, ...feedLines('model', model)];
}

function realLine(name: string, feed: string, s: CrossingScores): string {
  const f2 = (v: number) => v.toFixed(2);
  const pct = (v: number) => `${v >= 0 ? '+' : ''}${(100 * v).toFixed(0)}`;
  const dir = (c: DirectionScore) => [
    f2(c.counted ? c.matched / c.counted : 1),
    f2(c.labelled ? c.matched / c.labelled : 1),
    c.labelled ? pct((c.counted - c.labelled) / c.labelled) : '-',
  ];
  return [name, feed, '-', 5, '-', 1, '-', '-', '-', '-', ...dir(s.in), ...dir(s.out)]
    .concat(`${s.in.labelled}/${s.out.labelled}`)
    .join('\t');
}

/**
 * Crossing F1 per camera and direction, passages pooled over every density, rate and clip, then
 * over both cameras and directions: one figure to compare settings by (docs/experiments/018).
 */
function f1Lines(noise: Row[]): string[] {
  if (noise.length === 0) return [];
  const f1 = (d: { labelled: number; counted: number; matched: number }) =>
    d.labelled + d.counted ? (2 * d.matched) / (d.labelled + d.counted) : 1;
  const byCamera = [...new Set(noise.map((r) => r.camera))].map((camera) => {
    const c = sumCrossings(
      noise.filter((r) => r.camera === camera).flatMap((r) => r.scores.map((s) => s.crossings)),
    );
    return { camera, c };
  });
  const pooled = sumCrossings(byCamera.map((b) => b.c));
  const all = {
    labelled: pooled.in.labelled + pooled.out.labelled,
    counted: pooled.in.counted + pooled.out.counted,
    matched: pooled.in.matched + pooled.out.matched,
  };
  return [
    ...byCamera.map(
      ({ camera, c }) =>
        `crossing F1 ${camera}: in ${f1(c.in).toFixed(3)} out ${f1(c.out).toFixed(3)}`,
    ),
    `crossing F1 pooled: ${f1(all).toFixed(3)}`,
  ];
}

function mean(values: readonly number[]): number {
  return values.length ? values.reduce((a, v) => a + v, 0) / values.length : 0;
}

/** The noise feed's figures per density and rate, cameras pooled, as the product reads them. */
function writeConfidence(noise: Row[]): void {
  const keys = [...new Set(noise.map((r) => `${r.density}/${r.fps}`))];
  const bands = keys.map((key): ConfidenceBand => {
    const group = noise.filter((r) => `${r.density}/${r.fps}` === key);
    const c = sumCrossings(group.flatMap((r) => r.scores.map((s) => s.crossings)));
    const round = (v: number) => Math.round(v * 100) / 100;
    const score = (d: typeof c.in) => ({
      precision: round(precisionOf(d)),
      recall: round(recallOf(d)),
      passages: d.labelled,
    });
    const { density, fps } = group[0]!;
    return {
      sceneBees: density,
      crowding: crowdingOf(density),
      sampleFps: fps,
      meanNear: Math.round(mean(group.flatMap((r) => r.near)) * 10) / 10,
      in: score(c.in),
      out: score(c.out),
    };
  });
  const table: ConfidenceTable = {
    benchmark: 'synthetic entrance benchmark',
    feed: 'noise',
    variant: variantName,
    date: new Date().toISOString().slice(0, 10),
    commit: execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT }).toString().trim(),
    cameras,
    clipsPerCamera: clips,
    clipSeconds: seconds,
    bands: bands.sort((a, b) => a.sampleFps - b.sampleFps || a.sceneBees - b.sceneBees),
  };
  const file = path.join(ROOT, 'engine/traffic/confidence-table.ts');
  writeFileSync(file, confidenceSource(table));
  execFileSync('npx', ['prettier', '--write', file], { cwd: ROOT, stdio: 'ignore' });
  console.log(`wrote ${path.relative(ROOT, file)} (${bands.length} bands)`);
}

function confidenceSource(table: ConfidenceTable): string {
  return [
    '/**',
    ' * Written by `npm run bench:traffic -- --write-confidence` (do not edit by hand): the synthetic',
    " * entrance benchmark's crossing precision and recall per density and sample rate, read by",
    ' * `trafficConfidence` (`confidence.ts`). Run it again after changing the tracker or the count.',
    ' */',
    "import type { ConfidenceTable } from '../types.ts';",
    '',
    `export const TRAFFIC_CONFIDENCE: ConfidenceTable = ${JSON.stringify(table, null, 2)};`,
    '',
  ].join('\n');
}

function line(row: Row): string {
  const t = totalScore(row.scores.map((s) => s.tracking));
  const hota = row.scores.reduce((a, s) => a + s.hota.hota, 0) / row.scores.length;
  const c = sumCrossings(row.scores.map((s) => s.crossings));
  const f2 = (v: number) => v.toFixed(2);
  const pct = (v: number) => `${v >= 0 ? '+' : ''}${(100 * v).toFixed(0)}`;
  return [
    row.camera,
    row.feed,
    row.density,
    row.fps,
    mean(row.near).toFixed(1),
    row.scores.length,
    f2(hota),
    f2(t.idf1),
    f2(t.mota),
    pct(t.uniqueCountError),
    f2(precisionOf(c.in)),
    f2(recallOf(c.in)),
    pct(countErrorOf(c.in)),
    f2(precisionOf(c.out)),
    f2(recallOf(c.out)),
    pct(countErrorOf(c.out)),
    `${c.in.labelled}/${c.out.labelled}`,
  ].join('\t');
}

/**
 * The synthetic entrance benchmark (issue 56): clips of simulated bees with exact identities and
 * crossings (`lab/entrance-sim`), on both cameras, at several densities and sample rates, fed to
 * the tracker and the count two ways: the noise model fitted to the detector's errors (cheap),
 * and the real detector on rendered frames (costly, a few short clips). Prints one table: HOTA,
 * IDF1, MOTA, unique-count error, and per direction the crossings' precision, recall and count
 * error (signed).
 *
 *   npm run bench:traffic -- [--data ../shared/datasets] [--seconds 60] [--clips 3]
 *     [--densities 5,15,40] [--fps 5,10,15] [--cameras hive-entrance,backyard-entrance]
 *     [--detector-seconds 12] [--detector-clips 1] [--detector-densities 15]
 *     [--detector-fps 5,10] [--no-detector] [--variant product]
 *
 * Seeded: the same flags give the same table. Nothing rendered is kept. The detector feed needs
 * `../shared/datasets` (backgrounds and bees are cut from the labelled frames) and skips with a
 * message without it.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  createEngine,
  DEFAULT_MODEL_PATH,
  loadModelCard,
  trackerOptionsFor,
} from '../../engine/index.ts';
import { totalScore } from '../../lab/index.ts';
import {
  CAMERAS,
  countErrorOf,
  detectorDetections,
  loadScene,
  noiseFeed,
  precisionOf,
  recallOf,
  scoreClip,
  simulate,
  sumCrossings,
  VARIANTS,
} from '../../lab/entrance-sim/index.ts';
import type { CameraName, ClipScore, Variant } from '../../lab/entrance-sim/index.ts';
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
}
const rows: Row[] = [];

// The noise feed: every camera, density and rate, `--clips` seeds each.
const seconds = num('seconds', 60);
const clips = num('clips', 3);
for (const name of cameras) {
  for (const density of numbers('densities', '5,15,40')) {
    for (const fps of numbers('fps', '5,10,15')) {
      const scores: ClipScore[] = [];
      for (let seed = 1; seed <= clips; seed++) {
        const sim = simulate({ camera: CAMERAS[name], density, durationS: seconds, seed });
        scores.push(
          await scoreClip(sim, fps, noiseFeed(sim, 1000 + seed), {
            tracker: trackerFor(fps, name),
            ...(variant.traffic ? { traffic: variant.traffic } : {}),
          }),
        );
      }
      rows.push({ camera: name, feed: 'noise', density, fps, scores });
      console.error(line(rows.at(-1)!));
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
        for (let seed = 1; seed <= num('detector-clips', 1); seed++) {
          const camera = CAMERAS[name];
          const sim = simulate({ camera, density, durationS: num('detector-seconds', 12), seed });
          const frames = await detectorDetections(sim, fps, scene, engine);
          scores.push(
            await scoreClip(sim, fps, (k) => frames[k]!, {
              tracker: trackerFor(fps, name),
              ...(variant.traffic ? { traffic: variant.traffic } : {}),
            }),
          );
        }
        rows.push({ camera: name, feed: 'detector', density, fps, scores });
        console.error(line(rows.at(-1)!));
      }
    }
  }
}

console.log(`variant ${variantName}: ${variant.description}`);
console.log(
  [
    'camera',
    'feed',
    'bees',
    'fps',
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

/**
 * The calibration protocol (issue 58, item 4; docs/experiments/013-calibration-protocol.md).
 *
 * For each camera and pseudo-camera (hive val, backyard valid, the shifted views grouped by zoom
 * and by lighting, `views.csv` of `training.shifted_view`), 10 draws of 5 frames play the
 * corrected frames: a calibration is fitted on them (`fitCalibration`, leave one frame out, the
 * product's noise rule), and the camera's other frames (those of other files than the draw's)
 * are scored uncalibrated (the product's path: card thresholds, auto-zoom) and calibrated
 * (as the product would apply it: not at all when its gain was inside the noise; and forced,
 * for reference). Figures per camera: the medians over draws of count error and bee AP50, the
 * median change and the worst draw.
 *
 * Detections are cached per frame and zoom (tmp/calibration-protocol/), found once at a raw
 * threshold of 0.05 with one onnxruntime thread, so a second run or more draws cost nothing.
 *
 *   npm run bench:calibration -- [--draws 10] [--frames 5] [--only backyard-valid] [--json out.json]
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import {
  buildLabelMap,
  calibratedThresholds,
  createEngine,
  createEvalPredictor,
  evaluateBoxes,
  fitCalibration,
  readDataset,
  seededRandom,
  zoomsToDetect,
} from '../../engine/index.ts';
import type {
  BoxDataset,
  CalibrationFrame,
  Detection,
  Engine,
  ProductClass,
} from '../../engine/index.ts';

const RAW_THRESHOLD = 0.05;
const CACHE_DIR = 'tmp/calibration-protocol';
const SHIFTED = 'tmp/eval/hive-shifted';

const { values: args } = parseArgs({
  options: {
    draws: { type: 'string', default: '10' },
    frames: { type: 'string', default: '5' },
    only: { type: 'string' },
    json: { type: 'string' },
    seed: { type: 'string', default: '13' },
  },
});

interface Camera {
  name: string;
  root: string;
  /** Images of the dataset in this camera (all when absent). */
  keep?: (image: string) => boolean;
  /** The file (clip, or source frame) an image is a still of. */
  fileOf: (image: string) => string;
}

const frameOf = (image: string) => path.basename(image).replace(/-v\d+\.jpg$|\.jpg$/, '');
const clipOf = (image: string) => path.basename(image).replace(/_mp4-.*$/, '');

function shiftedGroups(): Camera[] {
  const manifest = path.join(SHIFTED, 'views.csv');
  if (!fs.existsSync(manifest)) return [];
  const rows = fs
    .readFileSync(manifest, 'utf8')
    .trim()
    .split('\n')
    .slice(1)
    .map((line) => {
      const [image, zoom, , bright] = line.split(',');
      return { image: image!, zoom: Number(zoom), bright: Number(bright) };
    });
  const group = (name: string, test: (r: (typeof rows)[number]) => boolean): Camera => {
    const names = new Set(rows.filter(test).map((r) => r.image));
    return { name, root: SHIFTED, keep: (im) => names.has(path.basename(im)), fileOf: frameOf };
  };
  return [
    group('shifted zoom 0.6-0.85 (far)', (r) => r.zoom < 0.85),
    group('shifted zoom 0.85-1.2', (r) => r.zoom >= 0.85 && r.zoom <= 1.2),
    group('shifted zoom 1.2-1.6 (near)', (r) => r.zoom > 1.2),
    group('shifted light dark (<0.8)', (r) => r.bright < 0.8),
    group('shifted light mid', (r) => r.bright >= 0.8 && r.bright <= 1.05),
    group('shifted light bright (>1.05)', (r) => r.bright > 1.05),
  ];
}

/** Cheapest first: the shifted views are 360p. */
const CAMERAS: Camera[] = [
  ...shiftedGroups(),
  { name: 'hive val', root: 'tmp/eval/hive-entrance-val', fileOf: frameOf },
  { name: 'backyard valid', root: '../shared/datasets/backyard-entrance/valid', fileOf: clipOf },
];

interface Predicted {
  width: number;
  height: number;
  zoom: number;
  detections: Detection[];
}

/** Detections per image and zoom ('auto': the product's own path), kept on disk. */
class DetectionCache {
  private readonly file: string;
  private readonly entries: Record<string, Predicted>;
  constructor(private readonly engine: Engine) {
    fs.mkdirSync(CACHE_DIR, { recursive: true });
    this.file = path.join(CACHE_DIR, `detections-${engine.detector.identity.version}.json`);
    this.entries = fs.existsSync(this.file)
      ? (JSON.parse(fs.readFileSync(this.file, 'utf8')) as Record<string, Predicted>)
      : {};
  }
  private dirty = 0;
  async get(image: string, zoom: number | 'auto'): Promise<Predicted> {
    const key = `${path.resolve(image)}|${zoom}`;
    const hit = this.entries[key];
    if (hit) return hit;
    // Zoom 1 is the product's first pass: reuse it where auto-zoom kept it.
    if (zoom === 1) {
      const auto = this.entries[`${path.resolve(image)}|auto`];
      if (auto && auto.zoom === 1) return auto;
    }
    const predict = createEvalPredictor(this.engine, {
      scoreThreshold: RAW_THRESHOLD,
      ...(zoom === 'auto' ? {} : { zoom }),
    });
    const p = await predict(image);
    this.entries[key] = p;
    if (++this.dirty >= 10) this.save();
    return p;
  }
  save(): void {
    fs.writeFileSync(this.file, JSON.stringify(this.entries));
    this.dirty = 0;
  }
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

function draw(n: number, k: number, fileOf: (i: number) => string, random: () => number): number[] {
  for (let attempt = 0; attempt < 100; attempt++) {
    const order = Array.from({ length: n }, (_, i) => i);
    for (let i = n - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [order[i], order[j]] = [order[j]!, order[i]!];
    }
    const chosen = order.slice(0, k);
    if (new Set(chosen.map(fileOf)).size >= 2) return chosen;
  }
  throw new Error('No draw of frames from two files');
}

interface DrawResult {
  zoom: number | null;
  thresholds: Record<string, number>;
  significant: boolean;
  lofo: { uncalibrated: number; calibrated: number; noise: number };
  scored: number;
  uncalibrated: { count: number; ap50: number | null };
  applied: { count: number; ap50: number | null };
  forced: { count: number; ap50: number | null };
}

async function runCamera(camera: Camera, engine: Engine, cache: DetectionCache) {
  const dataset = (await readDataset(camera.root, buildLabelMap())) as BoxDataset;
  const images = dataset.images.filter((im) => !camera.keep || camera.keep(im.path));
  const detector = engine.detector;
  const card = detector.scoreThresholds();
  const autoZoom = detector.card.input.autoZoom;
  const base: Predicted[] = [];
  for (const im of images) base.push(await cache.get(im.path, 'auto'));
  cache.save();
  const frames: CalibrationFrame[] = images.map((im, i) => {
    const { width, height } = base[i]!;
    return {
      file: camera.fileOf(im.path),
      inputScale: detector.inputSizeFor(width, height, 1).width / width,
      truth: im.gt.map((g) => ({
        cls: g.cls,
        box: {
          x: g.box.x * width,
          y: g.box.y * height,
          width: g.box.width * width,
          height: g.box.height * height,
        },
      })),
    };
  });
  const atZoom = new Map<string, Predicted>();
  const ensure = async (i: number, zoom: number) => {
    const key = `${i}:${zoom}`;
    if (!atZoom.has(key)) atZoom.set(key, await cache.get(images[i]!.path, zoom));
    return atZoom.get(key)!;
  };
  const detectionsOf = (i: number, zoom: number | null) =>
    zoom === null ? base[i]!.detections : atZoom.get(`${i}:${zoom}`)!.detections;

  const score = (
    on: number[],
    detections: (i: number) => Predicted,
    thresholds: { score: number; perClass: Partial<Record<ProductClass, number>> },
  ) => {
    const m = evaluateBoxes(
      on.map((i) => {
        const p = detections(i);
        return {
          gt: images[i]!.gt.map(({ cls, box }) => ({ cls, box })),
          predictions: p.detections.map((d) => ({
            cls: d.cls,
            score: d.score,
            box: {
              x: d.box.x / p.width,
              y: d.box.y / p.height,
              width: d.box.width / p.width,
              height: d.box.height / p.height,
            },
          })),
        };
      }),
      { thresholds, modelClasses: detector.identity.classes },
    );
    return { count: m.count_error_pct ?? 0, ap50: m.classes.bee?.ap50 ?? null };
  };

  const random = seededRandom(Number(args.seed));
  const results: DrawResult[] = [];
  for (let d = 0; d < Number(args.draws); d++) {
    const chosen = draw(images.length, Number(args.frames), (i) => frames[i]!.file, random);
    const sub = chosen.map((i) => frames[i]!);
    for (const { frame, zoom } of zoomsToDetect(sub, autoZoom)) await ensure(chosen[frame]!, zoom);
    const fit = fitCalibration({
      frames: sub,
      card,
      autoZoom,
      uncalibrated: chosen.map((i) => base[i]!.detections),
      detectionsAt: (k, zoom) => detectionsOf(chosen[k]!, zoom),
    });
    const files = new Set(sub.map((f) => f.file));
    const scored = images.map((_, i) => i).filter((i) => !files.has(frames[i]!.file));
    if (fit.zoom !== null) for (const i of scored) await ensure(i, fit.zoom);
    cache.save();
    const calibratedAt = (i: number) =>
      fit.zoom === null ? base[i]! : atZoom.get(`${i}:${fit.zoom}`)!;
    const uncalibrated = score(scored, (i) => base[i]!, card);
    const forced = score(scored, calibratedAt, calibratedThresholds(card, fit.thresholds));
    results.push({
      zoom: fit.zoom,
      thresholds: fit.thresholds,
      significant: fit.gain.significant,
      lofo: {
        uncalibrated: fit.gain.uncalibrated_count_error_pct,
        calibrated: fit.gain.calibrated_count_error_pct,
        noise: fit.gain.noise_pct,
      },
      scored: scored.length,
      uncalibrated,
      forced,
      applied: fit.gain.significant ? forced : uncalibrated,
    });
    process.stderr.write(`${camera.name}: draw ${d + 1} done\n`);
  }
  return { camera: camera.name, images: images.length, draws: results };
}

function summary(r: Awaited<ReturnType<typeof runCamera>>) {
  const of = (pick: (d: DrawResult) => number) => r.draws.map(pick);
  const ap = (v: number | null) => v ?? 0;
  const line = (which: 'applied' | 'forced') => {
    const countChange = of((d) => d[which].count - d.uncalibrated.count);
    const apChange = of((d) => 100 * (ap(d[which].ap50) - ap(d.uncalibrated.ap50)));
    return {
      median_count_error: median(of((d) => d[which].count)),
      median_count_change: median(countChange),
      worst_count_change: Math.max(...countChange),
      median_ap50_change: median(apChange),
      worst_ap50_change: Math.min(...apChange),
    };
  };
  return {
    camera: r.camera,
    images: r.images,
    median_uncalibrated_count_error: median(of((d) => d.uncalibrated.count)),
    median_uncalibrated_ap50: median(of((d) => 100 * ap(d.uncalibrated.ap50))),
    applied_draws: r.draws.filter((d) => d.significant).length,
    applied: line('applied'),
    forced: line('forced'),
  };
}

const engine = await createEngine({ threads: 1 });
const cache = new DetectionCache(engine);
const cameras = CAMERAS.filter((c) => !args.only || c.name.includes(args.only));
const all = [];
for (const camera of cameras) {
  const r = await runCamera(camera, engine, cache);
  all.push(r);
  console.log(JSON.stringify(summary(r)));
}
if (args.json) {
  fs.writeFileSync(args.json, JSON.stringify({ summaries: all.map(summary), runs: all }, null, 2));
}
const f = (v: number) => (v >= 0 ? '+' : '') + v.toFixed(1);
console.log(
  '\n| camera | frames | uncal. count err % | applied draws | cal. count err % (median) | median change | worst draw | bee AP50 median change | worst AP50 draw | forced: median change / worst |',
);
console.log('| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |');
for (const s of all.map(summary)) {
  console.log(
    `| ${s.camera} | ${s.images} | ${s.median_uncalibrated_count_error.toFixed(1)} | ${s.applied_draws}/${Number(args.draws)} | ${s.applied.median_count_error.toFixed(1)} | ${f(s.applied.median_count_change)} | ${f(s.applied.worst_count_change)} | ${f(s.applied.median_ap50_change)} | ${f(s.applied.worst_ap50_change)} | ${f(s.forced.median_count_change)} / ${f(s.forced.worst_count_change)} |`,
  );
}

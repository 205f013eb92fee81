/**
 * How far each picture of a YOLO set strays from the size auto-zoom expects: the upper-quartile
 * (card `input.auto_zoom.quantile`) honeybee size of its detections at the card's thresholds,
 * in the detector's input pixels, over `insect_px`. On frames filmed at the learnt size (the
 * hive training frames) the spread says how tight the tolerance can be without zooming them.
 *
 *     node bin/run-ts.mjs training/zoom_spread.ts DATASET... [--model CARD]
 */
import path from 'node:path';
import { createEngine, DEFAULT_MODEL_PATH, loadModelCard } from '../engine/index.ts';
import { insectSize, quantile } from '../engine/detection/zoom.ts';
import * as ev from '../engine/eval/index.ts';

const args = process.argv.slice(2);
const at = args.indexOf('--model');
const modelPath = at >= 0 ? args.splice(at, 2)[1]! : DEFAULT_MODEL_PATH;
const autoZoom = (await loadModelCard(path.resolve(modelPath))).input.autoZoom;
if (!autoZoom) throw new Error(`${modelPath} has no input.auto_zoom`);

const engine = await createEngine({ modelPath });
const detector = engine.detector;
const predict = ev.createEvalPredictor(engine);
const thresholds = detector.scoreThresholds('image');
const fmt = (xs: number[], qs: number[]) => qs.map((q) => quantile(xs, q).toFixed(3)).join(' / ');

for (const root of args) {
  const dataset = await ev.readDataset(root, ev.buildLabelMap());
  if (dataset.kind !== 'boxes') throw new Error(`${root} is not a YOLO box dataset`);
  const ratios: number[] = [];
  for (const image of dataset.images) {
    // Boxes in source pixels at the usual (zoom 1) input scale: what the first pass judges. A
    // picture auto-zoom decoded again reports its second pass, the same bees in source pixels.
    const p = await predict(image.path);
    const inputPx = detector.inputSizeFor(p.width, p.height).width / p.width;
    const size = insectSize(p.detections, inputPx, autoZoom, (cls) =>
      ev.thresholdFor(cls, thresholds),
    );
    if (size !== undefined) ratios.push(size / autoZoom.insectPx);
  }
  ratios.sort((a, b) => a - b);
  const deviation = ratios.map((r) => Math.max(r, 1 / r)).sort((a, b) => a - b);
  console.log(
    `${path.basename(root)}: ${ratios.length} of ${dataset.images.length} pictures judged;`,
    `size / insect_px min / 5 % / 50 % / 95 % / max ${fmt(ratios, [0, 0.05, 0.5, 0.95, 1])};`,
    `deviation either way 90 % / 95 % / 99 % / max ${fmt(deviation, [0.9, 0.95, 0.99, 1])}`,
  );
}

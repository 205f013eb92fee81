/**
 * What a zoom-in view of training.zoom_view would score if the detector still saw the whole
 * frame: each whole validation frame's detections (the production path) cut to the window the
 * view took from it, with the rule its labels follow (kept, clipped, when at least half inside),
 * against the same labels. The paired change from there to the view's own pass (auto-zoomed)
 * is what the smaller picture costs; the rest of the gap to the whole frames' figures is the
 * windows' choice of bees.
 *
 *     node bin/run-ts.mjs training/zoom_reference.ts tmp/eval/hive-entrance-val tmp/zoom [--model CARD]
 */
import path from 'node:path';
import { createEngine, DEFAULT_MODEL_PATH } from '../engine/index.ts';
import type { Box } from '../engine/index.ts';
import * as ev from '../engine/eval/index.ts';
import type { ImageEval, PredictedImage } from '../engine/eval/index.ts';
import { changeText, metricsLine } from './report.ts';

const args = process.argv.slice(2);
const at = args.indexOf('--model');
const modelPath = at >= 0 ? args.splice(at, 2)[1]! : DEFAULT_MODEL_PATH;
const [wholeRoot, viewsRoot] = args;
if (!wholeRoot || !viewsRoot) throw new Error('usage: zoom_reference.ts HIVE_VAL_VIEW ZOOM_VIEWS');

const engine = await createEngine({ modelPath });
const predict = ev.createEvalPredictor(engine);
const scoring = {
  thresholds: engine.detector.scoreThresholds('image'),
  modelClasses: engine.detector.identity.classes,
};

async function boxDataset(root: string): Promise<ev.BoxDataset> {
  const dataset = await ev.readDataset(root, ev.buildLabelMap());
  if (dataset.kind !== 'boxes') throw new Error(`${root} is not a YOLO box dataset`);
  return dataset;
}

/** `box` (source pixels) in a window's normalised frame; undefined under half inside. */
function inWindow(box: Box, x: number, y: number, w: number, h: number): Box | undefined {
  const clip = (v: number, max: number) => Math.min(Math.max(v, 0), max);
  const x0 = clip(box.x - x, w);
  const x1 = clip(box.x + box.width - x, w);
  const y0 = clip(box.y - y, h);
  const y1 = clip(box.y + box.height - y, h);
  const inside = ((x1 - x0) * (y1 - y0)) / Math.max(box.width * box.height, 1e-9);
  if (inside < 0.5) return undefined;
  return { x: x0 / w, y: y0 / h, width: (x1 - x0) / w, height: (y1 - y0) / h };
}

const whole = new Map<string, PredictedImage>();
const wholeImages: ImageEval[] = [];
for (const image of (await boxDataset(wholeRoot)).images) {
  const p = await predict(image.path);
  whole.set(path.parse(image.path).name, p);
  wholeImages.push({ gt: image.gt, predictions: ev.normalisedPredictions(p) });
}
console.log(`whole frames: ${metricsLine(ev.evaluateBoxes(wholeImages, scoring))}`);

for (const z of [1.5, 2]) {
  const view = `zoom-in-${z}`;
  const reference: ImageEval[] = [];
  const own: ImageEval[] = [];
  for (const image of (await boxDataset(path.join(viewsRoot, view))).images) {
    // training.zoom_view names a window FRAME-l or FRAME-r: 1/z of the frame, centred in height.
    const name = path.parse(image.path).name;
    const frame = whole.get(name.slice(0, -2));
    if (!frame) throw new Error(`${name}: no whole frame ${name.slice(0, -2)} in ${wholeRoot}`);
    const w = Math.round(frame.width / z);
    const h = Math.round(frame.height / z);
    const x = name.endsWith('-l') ? 0 : frame.width - w;
    const y = Math.floor((frame.height - h) / 2);
    const cut = frame.detections.flatMap((d) => {
      const box = inWindow(d.box, x, y, w, h);
      return box ? [{ cls: d.cls, score: d.score, box }] : [];
    });
    reference.push({ gt: image.gt, predictions: cut });
    own.push({ gt: image.gt, predictions: ev.normalisedPredictions(await predict(image.path)) });
  }
  console.log(
    `${view}, whole-frame detections: ${metricsLine(ev.evaluateBoxes(reference, scoring))}`,
  );
  console.log(`${view}, its own pass: ${metricsLine(ev.evaluateBoxes(own, scoring))}`);
  // Two windows a frame, frames in runs of 10 (as product_eval's zoom-in blocks).
  const change = ev.bootstrapBoxChanges(own, reference, {
    candidate: scoring,
    baseline: scoring,
    block: 20,
  });
  const aps = Object.entries(change.ap50).map(([c, v]) => `${c} ${changeText(v)}`);
  console.log(
    `${view}, own pass - whole frame: ${aps.join(', ')}; count error ${changeText(change.count_error_pct)}`,
  );
}

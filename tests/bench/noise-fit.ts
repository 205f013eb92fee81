/**
 * The noise feed's misses fitted by place (docs/experiments/021): on the six hand-counted hive
 * runs' labelled frames, how often the shipped detector misses a labelled bee in the entrance
 * strip and outside it, under another bee or not, and again on the next frame.
 *
 *   node bin/run-ts.mjs tests/bench/noise-fit.ts [--data ../shared/datasets]
 *
 * Missed: no detector box on the frame with IoU >= 0.3, of any honeybee class, at the card's
 * display threshold. In the strip: the centre's `entranceSide` is `hive` or `band` (the count's
 * margin). Occluded: IoU over 0.25 with another labelled box (the noise feed's own test). The
 * labels carry no identities, so a bee's next box is the next frame's labelled box with the
 * highest IoU, if >= 0.3. The detector's boxes come from `cachedRunDetections`
 * (tmp/run-detections/; the first time, the clips are analysed: minutes).
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  buildLabelMap,
  DEFAULT_MODEL_PATH,
  loadModelCard,
  readDataset,
} from '../../engine/index.ts';
import type { Detection } from '../../engine/index.ts';
import { iou } from '../../engine/detection/nms.ts';
import { entranceSide } from '../../engine/traffic/entrance.ts';
import type { Box, ProductClass } from '../../engine/types.ts';
import { handCountedRuns, HAND_COUNTED_FPS, HIVE_FRAME } from '../../lab/index.ts';
import { cachedRunDetections } from '../support/clip-cache.ts';
import { parseArgs } from './bench-support.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const args = parseArgs();
const datasets = path.resolve(args.get('data') ?? path.join(ROOT, '../shared/datasets'));
const HONEYBEE = new Set<ProductClass>(['bee', 'pollen', 'drone']);
const MATCH_IOU = 0.3;
const OCCLUDED_IOU = 0.25;

const card = await loadModelCard(DEFAULT_MODEL_PATH);
const threshold = (cls: ProductClass) => card.thresholds.perClass?.[cls] ?? card.thresholds.score;
const dataset = await readDataset(path.join(datasets, 'hive-entrance'), buildLabelMap());
if (dataset.kind !== 'boxes') throw new Error('hive-entrance is not a box dataset');
const runs = await handCountedRuns(dataset.images);

/** The detector's held-out frames (tests/model/hive-crossings/README.md); it trained on the rest. */
const HELD_OUT = { first: 1181, last: 1230 };
const frameNumber = (image: string) => Number(/_(\d+)\.jpg$/.exec(image)?.[1]);

type Place = 'strip' | 'outside';
const tally = () => ({ boxes: 0, missed: 0 });
const cellsOf = () => ({
  strip: { clear: tally(), occluded: tally(), repeat: tally() },
  outside: { clear: tally(), occluded: tally(), repeat: tally() },
});
// The fit reads all frames; the held-out ones are printed apart, as a check on frames it never saw.
const fits = { all: cellsOf(), 'held-out': cellsOf() };

for (const run of runs) {
  const detected = await detectorFrames(run.clip, run.sequence.images);
  const { width, height } = HIVE_FRAME;
  const frames = run.sequence.frames.map((f, i) => {
    const found = (detected[i] ?? []).filter(
      (d) => HONEYBEE.has(d.cls) && d.score >= threshold(d.cls),
    );
    const boxes = f.boxes.filter((b) => HONEYBEE.has(b.cls)).map((b) => b.box);
    return boxes.map((box, j): { box: Box; place: Place; occluded: boolean; missed: boolean } => {
      const centre: [number, number] = [
        (box.x + box.width / 2) / width,
        (box.y + box.height / 2) / height,
      ];
      const side = entranceSide(run.entrance, centre, 0.03);
      return {
        box,
        place: side === 'hive' || side === 'band' ? 'strip' : 'outside',
        occluded: boxes.some((o, k) => k !== j && iou(o, box) > OCCLUDED_IOU),
        missed: !found.some((d) => iou(d.box, box) >= MATCH_IOU),
      };
    });
  });
  frames.forEach((boxes, i) => {
    const n = frameNumber(run.sequence.images[i]!);
    const sets = [
      fits.all,
      ...(n >= HELD_OUT.first && n <= HELD_OUT.last ? [fits['held-out']] : []),
    ];
    for (const cells of sets)
      for (const b of boxes) {
        const cell = cells[b.place][b.occluded ? 'occluded' : 'clear'];
        cell.boxes++;
        if (b.missed) cell.missed++;
        const next = i + 1 < frames.length ? follower(b.box, frames[i + 1]!) : undefined;
        if (b.missed && next) {
          cells[b.place].repeat.boxes++;
          if (next.missed) cells[b.place].repeat.missed++;
        }
      }
  });
}

const rate = (c: { boxes: number; missed: number }) =>
  `${(c.missed / Math.max(1, c.boxes)).toFixed(3)} (${c.missed} / ${c.boxes})`;
console.log(`detector ${card.version}, ${runs.length} runs, missed / labelled boxes`);
for (const [name, cells] of Object.entries(fits)) {
  for (const place of ['strip', 'outside'] as const) {
    const c = cells[place];
    const all = {
      boxes: c.clear.boxes + c.occluded.boxes,
      missed: c.clear.missed + c.occluded.missed,
    };
    console.log(
      `${name}\t${place}\tall ${rate(all)}\tclear ${rate(c.clear)}\toccluded ${rate(c.occluded)}\trepeat ${rate(c.repeat)}`,
    );
  }
}

function follower<T extends { box: Box }>(box: Box, next: readonly T[]): T | undefined {
  let best: T | undefined;
  let bestIou = MATCH_IOU;
  for (const n of next) {
    const v = iou(n.box, box);
    if (v >= bestIou) [best, bestIou] = [n, v];
  }
  return best;
}

/** The detector's boxes per labelled frame (cached, as why-missed reads them). */
async function detectorFrames(clip: string, images: string[]): Promise<Detection[][]> {
  const frames = await cachedRunDetections(clip, images, card.version, HAND_COUNTED_FPS);
  return frames.map((f) => f.detections);
}

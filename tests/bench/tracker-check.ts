/**
 * The tracker's check on the labelled hive-entrance frames (issue 42, item 1).
 *
 * The 249 labelled frames are frames of one GoPro clip in order, with gaps; each run of
 * consecutive frame numbers (>= --min-run frames, default 10) is a sequence. Neighbouring frames
 * are a fraction of a second apart (labelled bees move a median 0.16 of their size a frame, a
 * walking bee a body length or two), about what the product samples at 5 fps. Each sequence's
 * boxes are linked frame to frame into ground-truth identities (`linkIdentities`: IoU >= 0.2 or
 * centres within 1.5 box sizes, an identity unlabelled for up to 2 frames linked again). Then
 * the engine's tracker runs on each sequence twice:
 * - `labels`: fed the labelled boxes themselves, to isolate the tracker;
 * - `model`: the production path, the sequence encoded as a 5 fps clip and analysed by
 *   `engine.analyse` (detector, auto-zoom, tracker, count score), its counted tracks scored.
 * Reported per sequence and in total: MOTA, IDF1, identity switches, fragmentations, tracks
 * against identities (count_err) and against identities labelled on 2+ frames (vs_2+: the
 * labels often box a bee on one frame only, which no track can count). --stride N keeps every
 * Nth frame.
 *
 *   node bin/run-ts.mjs tests/bench/tracker-check.ts [--data ../shared/datasets]
 *     [--min-run 10] [--stride 1] [--no-model] [--draw /tmp/linked] [--model card.json]
 *
 * --draw writes a few linked pairs (a box and its identity on the next frame, side by side) as
 * PNG files, to check the linking by eye.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createCanvas, loadImage } from '@napi-rs/canvas';
import {
  buildLabelMap,
  createEngine,
  DEFAULT_MODEL_PATH,
  loadModelCard,
  readDataset,
  trackerOptionsFor,
} from '../../engine/index.ts';
import {
  centreDistance,
  encodeFrameClip,
  labelledSequences,
  scoreTracking,
  totalScore,
  trackLabelledBoxes,
  trackObjects,
} from '../../lab/index.ts';
import type { FrameObjects, TrackingScore } from '../../lab/index.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const args = process.argv.slice(2);
const arg = (name: string, fallback: string): string => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && args[i + 1] ? args[i + 1]! : fallback;
};
const hive = path.join(
  path.resolve(arg('data', path.join(ROOT, '../shared/datasets'))),
  'hive-entrance',
);
if (!existsSync(hive)) {
  console.log(
    `SKIP: ${hive} is absent; the tracker check needs the labelled hive-entrance frames.`,
  );
  process.exit(0);
}
const minRun = Number(arg('min-run', '10'));
const stride = Number(arg('stride', '1'));
const drawDir = arg('draw', '');
const modelPath = path.resolve(arg('model', DEFAULT_MODEL_PATH));
// Every labelled frame of the hive clip is 3840x1080.
const WIDTH = 3840;
const HEIGHT = 1080;

const dataset = await readDataset(hive, buildLabelMap());
if (dataset.kind !== 'boxes') throw new Error(`${hive} is not a box dataset`);
const sequences = labelledSequences(
  dataset.images,
  { width: WIDTH, height: HEIGHT },
  { minLength: minRun, stride },
);

const card = await loadModelCard(modelPath);
const thresholds = card.thresholds;
const options = trackerOptionsFor(
  5,
  { score: thresholds.score, perClass: thresholds.perClass ?? {} },
  thresholds.trackScore,
);
const engine = args.includes('--no-model')
  ? undefined
  : // A 4K clip of 100 frames takes minutes to encode and read on a loaded machine.
    await createEngine({ modelPath, threads: 1, limits: { timeoutMs: 1_800_000 } });

const rows: { run: string; source: string; score: TrackingScore }[] = [];
const pct = (v: number) => `${(100 * v).toFixed(1)}`;
const line = (run: string, source: string, s: TrackingScore) =>
  [
    run,
    source,
    s.gtBoxes,
    s.gtIds,
    s.gtIdsSeenTwice,
    s.hypIds,
    pct(s.uniqueCountError),
    pct(s.hypIds / Math.max(1, s.gtIdsSeenTwice) - 1),
    s.misses,
    s.falsePositives,
    s.idSwitches,
    s.fragmentations,
    pct(s.mota),
    pct(s.idf1),
  ]
    .map(String)
    .join('\t');

const moves: number[] = [];
let drawn = 0;
for (const { name, images, frames: labelled, gt } of sequences) {
  // How far a labelled bee moves per frame, in its own sizes (the frames' spacing in time).
  for (let i = 1; i < gt.length; i++) {
    for (const o of gt[i]!.objects) {
      const before = gt[i - 1]!.objects.find((p) => p.id === o.id);
      if (before) moves.push(centreDistance(before.box, o.box));
    }
  }
  if (drawDir && drawn < 8) drawn += await drawPairs(images, gt, drawDir, 2);
  const byLabels = trackObjects(trackLabelledBoxes(labelled, options));
  rows.push({ run: name, source: 'labels', score: scoreTracking(gt, byLabels) });
  if (engine) {
    const clip = await encodeFrameClip(images, engine, { fps: 5 });
    try {
      const result = await engine.analyse(clip.file, { sampleFps: 5 });
      rows.push({
        run: name,
        source: 'model',
        score: scoreTracking(gt, trackObjects(result.tracks)),
      });
    } finally {
      await clip.remove();
    }
  }
  // Each sequence's rows as they come (stderr), so a long run shows progress.
  for (const r of rows.filter((r) => r.run === name)) {
    console.error(line(r.run, r.source, r.score));
  }
}

console.log(
  `${sequences.length} sequences of ${sequences.reduce((a, q) => a + q.images.length, 0)} frames (stride ${stride}); labelled bees move a median ${median(moves).toFixed(3)} box sizes per frame`,
);
console.log(
  [
    'sequence',
    'source',
    'boxes',
    'ids',
    'ids_2+',
    'tracks',
    'count_err_%',
    'vs_2+_%',
    'miss',
    'fp',
    'idsw',
    'frag',
    'MOTA_%',
    'IDF1_%',
  ].join('\t'),
);
for (const r of rows) console.log(line(r.run, r.source, r.score));
for (const source of ['labels', 'model']) {
  const of = rows.filter((r) => r.source === source).map((r) => r.score);
  if (of.length) console.log(line('total', source, totalScore(of)));
}

function median(values: readonly number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s.length ? s[s.length >> 1]! : NaN;
}

/** Draws up to `most` linked pairs of `run` (frame i and i+1 crops side by side) into `dir`. */
async function drawPairs(
  run: readonly string[],
  gt: readonly FrameObjects[],
  dir: string,
  most: number,
): Promise<number> {
  mkdirSync(dir, { recursive: true });
  let n = 0;
  const i = Math.floor(gt.length / 2);
  const a = gt[i]!;
  const b = gt[i + 1];
  if (!b) return 0;
  const [imgA, imgB] = await Promise.all([loadImage(run[i]!), loadImage(run[i + 1]!)]);
  // The links made across the largest distances first: those most likely wrong.
  const linked = a.objects
    .flatMap((o) => {
      const next = b.objects.find((p) => p.id === o.id);
      return next ? [{ o, distance: centreDistance(o.box, next.box) }] : [];
    })
    .sort((x, y) => y.distance - x.distance);
  for (const { o } of linked) {
    if (n >= most) break;
    const size = 360;
    const cx = o.box.x + o.box.width / 2;
    const cy = o.box.y + o.box.height / 2;
    const x0 = Math.max(0, Math.min(WIDTH - size, cx - size / 2));
    const y0 = Math.max(0, Math.min(HEIGHT - size, cy - size / 2));
    const canvas = createCanvas(size * 2 + 10, size);
    const ctx = canvas.getContext('2d');
    ctx.fillStyle = '#fff';
    ctx.fillRect(0, 0, canvas.width, canvas.height);
    [
      [imgA, a, 0],
      [imgB, b, size + 10],
    ].forEach(([img, frame, dx]) => {
      const f = frame as FrameObjects;
      ctx.drawImage(img as typeof imgA, x0, y0, size, size, dx as number, 0, size, size);
      for (const p of f.objects) {
        ctx.strokeStyle = p.id === o.id ? '#e69f00' : '#56b4e9';
        ctx.lineWidth = p.id === o.id ? 4 : 1.5;
        ctx.strokeRect((dx as number) + p.box.x - x0, p.box.y - y0, p.box.width, p.box.height);
        ctx.fillStyle = ctx.strokeStyle;
        ctx.font = '16px sans-serif';
        ctx.fillText(String(p.id), (dx as number) + p.box.x - x0 + 3, p.box.y - y0 + 16);
      }
    });
    const file = path.join(dir, `${path.basename(run[i]!, '.jpg')}-id${o.id}.png`);
    writeFileSync(file, await canvas.encode('png'));
    n++;
  }
  return n;
}

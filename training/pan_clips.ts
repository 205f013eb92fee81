/**
 * Unique insects on moving footage with labels (`engine/eval/pan.ts`): each hive validation
 * frame (3840x1080) filmed by a 1920x1080 window panning across it, encoded as an H.264 clip
 * and analysed as `analyseFile` analyses a video. A clip's unique insects by class should be
 * its frame's labels; each track, moved back by the window's offset, sits on one labelled bee,
 * which tells a doubled track, a track on no bee and a bee typed wrong apart.
 *
 *     node bin/run-ts.mjs training/pan_clips.ts tmp/eval/hive-entrance-val \
 *         [--analysis fast,thorough] [--every 1] [--speed 240] [--model CARD] [--clips DIR]
 *
 * --clips keeps the encoded clips in DIR and reuses them (encoding is most of a fast run).
 */
import { access, mkdir, mkdtemp, rename, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createEngine, DEFAULT_MODEL_PATH, VIDEO_ANALYSES } from '../engine/index.ts';
import type { VideoAnalysis } from '../engine/index.ts';
import * as ev from '../engine/eval/index.ts';
import type { PanLabel, PanOutcome, PanSummary } from '../engine/eval/index.ts';

const args = process.argv.slice(2);
const option = (name: string, fallback: string): string => {
  const at = args.indexOf(name);
  return at >= 0 ? args.splice(at, 2)[1]! : fallback;
};
const modelPath = option('--model', DEFAULT_MODEL_PATH);
const analyses = option('--analysis', 'fast,thorough').split(',') as VideoAnalysis[];
const every = Number(option('--every', '1'));
const speed = Number(option('--speed', String(ev.PAN_SPEED)));
const keep = option('--clips', '');
const [root] = args;
if (!root || analyses.some((a) => !VIDEO_ANALYSES.includes(a))) {
  throw new Error(
    'usage: pan_clips.ts HIVE_VAL_VIEW [--analysis fast,thorough] [--every N] [--speed PX_PER_S] [--clips DIR]',
  );
}

const engine = await createEngine({ modelPath });
const dataset = await ev.readDataset(root, ev.buildLabelMap());
if (dataset.kind !== 'boxes') throw new Error(`${root} is not a YOLO box dataset`);
const images = dataset.images.filter((_, i) => i % every === 0);
const dir = keep || (await mkdtemp(path.join(os.tmpdir(), 'hivesight-pan-')));
await mkdir(dir, { recursive: true });

try {
  const clips: { file: string; width: number; labels: PanLabel[] }[] = [];
  for (const image of images) {
    const media = await engine.probe(image.path);
    const file = path.join(dir, `${path.parse(image.path).name}-${speed}.mp4`);
    if (
      !(await access(file).then(
        () => true,
        () => false,
      ))
    ) {
      await ev.encodePanClip(image.path, media.width, `${file}.part.mp4`, engine, { speed });
      await rename(`${file}.part.mp4`, file);
    }
    clips.push({ file, width: media.width, labels: ev.panLabels(image.gt, media) });
  }
  console.log(
    `${clips.length} clips: a ${ev.PAN_WINDOW.width}x${ev.PAN_WINDOW.height} window panning ${speed} px/s across each frame`,
  );
  for (const analysis of analyses) {
    const outcomes: PanOutcome[] = [];
    let ms = 0;
    let frames = 0;
    for (const clip of clips) {
      const result = await engine.analyse(clip.file, { videoAnalysis: analysis });
      ms += result.timing.totalMs;
      frames += result.frames.length;
      const offsetAt = ev.panOffsets(result, clip.width, { speed });
      outcomes.push(ev.scorePanTracks(result.tracks, result.counts, clip.labels, offsetAt));
    }
    report(analysis, ev.summarisePan(outcomes), ms / frames);
  }
} finally {
  if (!keep) await rm(dir, { recursive: true, force: true });
}

function report(analysis: VideoAnalysis, s: PanSummary, msPerFrame: number): void {
  const pct = (x: number) => `${x.toFixed(1)} %`;
  console.log(
    `\n${analysis}: ${msPerFrame.toFixed(0)} ms a sampled frame; honeybees per clip, counted ` +
      `against labelled: mean abs error ${pct(s.honeybeeErrorPct)}, bias ${pct(s.honeybeeBiasPct)}`,
  );
  for (const type of ev.PAN_TYPES) {
    const row = s.typed[type];
    const found = s.labelled[type] - row.missed;
    console.log(
      `  ${type.padEnd(6)} labelled ${s.labelled[type]}, counted ${s.counted[type]}; the longest track ` +
        `on each typed it ${ev.PAN_TYPES.map((x) => `${x} ${row[x]}`).join(' / ')}, missed ${row.missed} ` +
        `(found ${pct((100 * found) / s.labelled[type])}, typed right ${pct((100 * row[type]) / Math.max(1, found))})`,
    );
    // What the count is made of: the labels' first tracks of this type, then the tracks that
    // count without a label of their own (a count near the truth can hide both kinds of error).
    const onLabels = ev.PAN_TYPES.reduce((n, label) => n + s.typed[label][type], 0);
    const { doubled, onNothing } = s.extra[type];
    console.log(
      `         counted as ${type}: first tracks on labels ${onLabels} (${row[type]} on a ${type}), ` +
        `second tracks on a label ${doubled}, on no label ${onNothing}`,
    );
  }
  console.log(
    `  doubled tracks ${s.doubled} (${s.doubledAfter} after the first track on their label ended, ` +
      `the rest beside it), tracks on no label ${s.onNothing}`,
  );
}

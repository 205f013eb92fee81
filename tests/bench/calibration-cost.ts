/**
 * A calibration's cost (issue 58's target: under 30 s of CPU for 10 frames, in the worker): the
 * worker's own call, `engine.calibrate`, with the engine options the server's worker uses (the
 * shipped model, onnxruntime's default threads), on 10 hive-entrance validation frames from
 * ../shared/datasets with their labels as the corrected boxes. Prints the process's CPU seconds
 * (user + system, every thread: what the 2 cores of a small server pay) and the wall seconds,
 * each beside the engine's start so that the fit itself reads alone.
 *
 *   npm run bench:calibration-cost -- [--frames 10]
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { buildLabelMap, createEngine, readDataset } from '../../engine/index.ts';
import type { BoxDataset, CorrectedStill } from '../../engine/index.ts';
import { intArg, parseArgs } from './bench-support.ts';

const ROOT = path.resolve('../shared/datasets/hive-entrance');
const SPLIT = path.resolve('training/splits/hive-entrance-val.txt');
const TARGET_CPU_S = 30;

const frames = intArg(parseArgs(), 'frames', 10);
if (!existsSync(path.join(ROOT, 'images')) || !existsSync(SPLIT)) {
  console.log(`calibration cost: ${ROOT} (or ${SPLIT}) is absent; nothing measured.`);
  process.exit(0);
}

const val = new Set(readFileSync(SPLIT, 'utf8').split(/\s+/).filter(Boolean));
const dataset = (await readDataset(ROOT, buildLabelMap())) as BoxDataset;
const images = dataset.images.filter((im) => val.has(path.basename(im.path)));
// Spread over the split (consecutive frames are near-duplicates), each frame a file of its own.
const step = Math.max(1, Math.floor(images.length / frames));
const chosen = images.filter((_, i) => i % step === 0).slice(0, frames);
if (chosen.length < frames) {
  console.log(`calibration cost: only ${chosen.length} validation frames found; nothing measured.`);
  process.exit(0);
}

const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};
const cpu0 = cpu();
const wall0 = performance.now();
const engine = await createEngine();
const stills: CorrectedStill[] = [];
for (const im of chosen) {
  const { width, height } = await engine.probe(im.path);
  stills.push({
    path: im.path,
    file: path.basename(im.path),
    truth: im.gt.map((g) => ({
      cls: g.cls === 'honeybee' ? 'bee' : g.cls,
      box: {
        x: g.box.x * width,
        y: g.box.y * height,
        width: g.box.width * width,
        height: g.box.height * height,
      },
    })),
  });
}
const cpu1 = cpu();
const wall1 = performance.now();
const calibration = await engine.calibrate(stills, { location: 'bench', date: '2026-12-06' });
const cpu2 = cpu();
const wall2 = performance.now();

const s = (v: number) => `${v.toFixed(1)} s`;
console.log(`calibration cost on ${stills.length} hive val frames (${calibration.frames} fitted)`);
console.log(`  engine start + probes: CPU ${s(cpu1 - cpu0)}, wall ${s((wall1 - wall0) / 1000)}`);
console.log(`  fit (engine.calibrate): CPU ${s(cpu2 - cpu1)}, wall ${s((wall2 - wall1) / 1000)}`);
console.log(
  `  target: under ${TARGET_CPU_S} s of CPU -> ${cpu2 - cpu1 < TARGET_CPU_S ? 'met' : 'NOT met'}`,
);
console.log(
  `  fitted: zoom ${calibration.zoom ?? 'auto'}, honeybee threshold ${calibration.thresholds.honeybee}, ` +
    `count error ${calibration.gain.uncalibrated_count_error_pct} % -> ${calibration.gain.calibrated_count_error_pct} % ` +
    `(noise ±${calibration.gain.noise_pct} %, ${calibration.gain.significant ? 'significant' : 'inside the noise'})`,
);

/**
 * Entrance traffic on a real sequence (issue 43, section 4): the longest run of consecutive
 * labelled hive-entrance frames, GH010990 frames 1124-1230 (107 frames), encoded in order as a
 * 5 fps clip, against crossings counted by hand by looking at the frames. The tally, the
 * entrance it was counted against and how it was counted sit beside this file in
 * `hive-crossings/` (README.md there). Two runs:
 * - the product path: `hivesight eval` on a folder holding the clip, its `.crossings.csv` and
 *   `.entrance.json` (detector, tracker, traffic count, crossings score);
 * - the labelled boxes fed to the tracker and counted with the same entrance, to tell the
 *   tracker-and-counting errors from the detector's.
 * Tolerances (TOLERANCE below) and the measured figures are in hive-crossings/README.md.
 * Skips when the datasets or the shipped model are absent.
 */
import { existsSync } from 'node:fs';
import { copyFile, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { afterAll, describe, expect, it } from 'vitest';
import {
  buildLabelMap,
  countTraffic,
  loadModelCard,
  parseEntrancePolygon,
  readCrossings,
  readDataset,
  resolveMediaTools,
  scoreCrossings,
  trackerOptionsFor,
  DEFAULT_LIMITS,
} from '../../engine/index.ts';
import { labelledSequences, trackLabelledBoxes } from '../../lab/index.ts';
import type { CrossingScore } from '../../engine/index.ts';
import { cachedFrameClip } from '../support/clip-cache.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CLI = path.join(ROOT, 'bin/hivesight.mjs');
const HIVE = path.resolve(ROOT, '../shared/datasets/hive-entrance');
const MODEL_CARD = path.join(ROOT, 'models/hivesight-detector.card.json');
const HERE = fileURLToPath(new URL('./hive-crossings/', import.meta.url));
const CLIP = 'hive-1124-1230';
const FIRST = 1124;
const LAST = 1230;
const FPS = 5;
const present = existsSync(HIVE) && existsSync(MODEL_CARD);
if (!present) console.warn(`hive-crossings: ${HIVE} (or the model) is absent; skipping.`);

/**
 * How far the counts may stray from the hand tally, in each direction: the least precision and
 * recall (passages matched within eval's 1 s, 5 frames) and the largest count error
 * |counted - labelled| / labelled. Measured (hive-crossings/README.md, docs/experiments/004 and
 * 007): labels in P 0.36 R 0.89 +144 %, out P 0.63 R 1.00 +59 %; model (detector 0.11.2) in
 * P 0.50 R 0.89 +78 %, out P 0.65 R 0.76 +18 %. The gates sit under those figures: they hold the
 * count to what it does today on this sequence (it still over-counts "in", mostly identity
 * switches among bees crowding the slit), short of the 8-11 % of the anchors.
 */
const TOLERANCE = {
  labels: { countErrorPct: 155, precision: 0.33, recall: 0.85 },
  model: { countErrorPct: 95, precision: 0.45, recall: 0.7 },
};

let dir = '';
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

async function sequence() {
  const dataset = await readDataset(HIVE, buildLabelMap());
  if (dataset.kind !== 'boxes') throw new Error('hive-entrance is not a box dataset');
  const run = labelledSequences(dataset.images, { width: 3840, height: 1080 }).find(
    (s) => s.name === `${FIRST}-${LAST}`,
  );
  if (!run) throw new Error(`no run of labelled frames ${FIRST}-${LAST}`);
  return run;
}

async function handTally() {
  const labels = readCrossings(await readFile(path.join(HERE, `${CLIP}.crossings.csv`), 'utf8'));
  const { points } = JSON.parse(
    await readFile(path.join(HERE, `${CLIP}.entrance.json`), 'utf8'),
  ) as { points: unknown };
  return { labels, entrance: parseEntrancePolygon(points) };
}

const figures = (s: CrossingScore) => ({
  ...s,
  precision: s.counted > 0 ? s.matched / s.counted : 1,
  recall: s.labelled > 0 ? s.matched / s.labelled : 1,
  countErrorPct: s.labelled > 0 ? (100 * Math.abs(s.counted - s.labelled)) / s.labelled : 0,
});

function expectWithin(
  scores: Record<'in' | 'out', CrossingScore>,
  tolerance: (typeof TOLERANCE)['model'],
) {
  for (const direction of ['in', 'out'] as const) {
    const f = figures(scores[direction]);
    expect(f.countErrorPct, direction).toBeLessThanOrEqual(tolerance.countErrorPct);
    expect(f.precision, direction).toBeGreaterThanOrEqual(tolerance.precision);
    expect(f.recall, direction).toBeGreaterThanOrEqual(tolerance.recall);
  }
}

describe.skipIf(!present)(`entrance crossings on hive frames ${FIRST}-${LAST}`, () => {
  it('the labelled boxes, tracked and counted, match the hand tally within the tolerance', async () => {
    const [run, { labels, entrance }, card] = await Promise.all([
      sequence(),
      handTally(),
      loadModelCard(MODEL_CARD),
    ]);
    expect(run.images).toHaveLength(LAST - FIRST + 1);
    const options = trackerOptionsFor(
      FPS,
      { score: card.thresholds.score, perClass: card.thresholds.perClass ?? {} },
      card.thresholds.trackScore,
    );
    const traffic = countTraffic(trackLabelledBoxes(run.frames, options), entrance, {
      width: 3840,
      height: 1080,
      sampleFps: FPS,
      durationS: run.images.length / FPS,
    });
    const scores = scoreCrossings(traffic.events, labels, 1);
    console.log(
      `hive-crossings (labels): ${JSON.stringify({ in: figures(scores.in), out: figures(scores.out), loops: traffic.loops })}`,
    );
    expectWithin(scores, TOLERANCE.labels);
  });

  it('hivesight eval on the clip matches the hand tally within the tolerance', async () => {
    const run = await sequence();
    dir = await mkdtemp(path.join(tmpdir(), 'hivesight-hive-crossings-'));
    const clip = await cachedFrameClip(
      run.images,
      // Encoding 107 4K frames takes minutes on a loaded machine.
      { tools: resolveMediaTools(), limits: { ...DEFAULT_LIMITS, timeoutMs: 1_500_000 } },
      { fps: FPS },
    );
    try {
      await copyFile(clip.file, path.join(dir, `${CLIP}.mp4`));
    } finally {
      await clip.remove();
    }
    for (const suffix of ['.crossings.csv', '.entrance.json']) {
      await copyFile(path.join(HERE, CLIP + suffix), path.join(dir, CLIP + suffix));
    }
    const result = await execa('node', [CLI, 'eval', dir, '--json'], {
      reject: false,
      env: { NO_COLOR: '1' },
      extendEnv: true,
      timeout: 1_500_000,
    });
    expect(result.exitCode, result.stderr).toBe(0);
    const report = JSON.parse(result.stdout) as {
      crossings: { total: Record<'in' | 'out' | 'loop', CrossingScore> };
    };
    const { total } = report.crossings;
    console.log(`hive-crossings (model): ${JSON.stringify(total)}`);
    expectWithin(total, TOLERANCE.model);
  }, 1_800_000);
});

/**
 * Entrance traffic on real sequences (issues 43 and 56): runs of consecutive labelled
 * hive-entrance frames (GH010990), each encoded in order as a 5 fps clip, against crossings
 * counted by hand by looking at the frames. The tallies, the entrance they were counted against
 * and how they were counted sit beside this file in `hive-crossings/` (README.md there); every
 * `hive-FIRST-LAST.crossings.csv` there is a run (`lab/hand-counted.ts`). Two paths, scored on
 * all runs' passages together:
 * - the product path: `hivesight eval` on a folder holding the clips, their `.crossings.csv` and
 *   `.entrance.json` (detector, tracker, traffic count, crossings score);
 * - the labelled boxes fed to the tracker and counted with the same entrance, to tell the
 *   tracker-and-counting errors from the detector's.
 * Tolerances (TOLERANCE below) and the measured figures are in hive-crossings/README.md.
 * Skips when the datasets or the shipped model are absent.
 */
import { existsSync } from 'node:fs';
import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { afterAll, describe, expect, it } from 'vitest';
import {
  buildLabelMap,
  countTraffic,
  loadModelCard,
  readDataset,
  resolveMediaTools,
  scoreCrossings,
  trackerOptionsFor,
  DEFAULT_LIMITS,
} from '../../engine/index.ts';
import {
  handCountedRuns,
  HAND_COUNTED_DIR,
  HAND_COUNTED_FPS as FPS,
  HIVE_FRAME,
  trackLabelledBoxes,
} from '../../lab/index.ts';
import { sumCrossings } from '../../lab/entrance-sim/index.ts';
import type { DirectionScore } from '../../lab/entrance-sim/index.ts';
import { cachedFrameClip } from '../support/clip-cache.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CLI = path.join(ROOT, 'bin/hivesight.mjs');
const HIVE = path.resolve(ROOT, '../shared/datasets/hive-entrance');
const MODEL_CARD = path.join(ROOT, 'models/hivesight-detector.card.json');
const present = existsSync(HIVE) && existsSync(MODEL_CARD);
if (!present) console.warn(`hive-crossings: ${HIVE} (or the model) is absent; skipping.`);

/**
 * How far the counts may stray from the hand tallies, all runs' passages together, in each
 * direction: the least precision and recall (passages matched within eval's 1 s, 5 frames) and
 * the largest count error |counted - labelled| / labelled. Measured (hive-crossings/README.md,
 * 41 in and 64 out by hand over six runs): labels in P 0.66 R 0.61 -7 %, out P 0.72 R 0.67
 * -6 %; model (detector 1.0.0, clips encoded afresh on a new machine) in P 0.73 R 0.59 -20 %,
 * out P 0.79 R 0.59 -25 % (0.11.2: in P 0.88 R 0.71 -20 %, out P 0.84 R 0.58 -31 %). The gates sit
 * just under those figures: they hold the count to what it does today on real frames. It
 * under-counts, most of all bees that step out onto the white and fly within a frame or two.
 */
const TOLERANCE = {
  labels: { countErrorPct: 12, precision: 0.62, recall: 0.57 },
  model: { countErrorPct: 28, precision: 0.7, recall: 0.56 },
};

let dir = '';
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

async function runs() {
  const dataset = await readDataset(HIVE, buildLabelMap());
  if (dataset.kind !== 'boxes') throw new Error('hive-entrance is not a box dataset');
  return handCountedRuns(dataset.images);
}

const figures = (s: DirectionScore) => ({
  ...s,
  precision: s.counted > 0 ? s.matched / s.counted : 1,
  recall: s.labelled > 0 ? s.matched / s.labelled : 1,
  countErrorPct: s.labelled > 0 ? (100 * Math.abs(s.counted - s.labelled)) / s.labelled : 0,
});

function expectWithin(
  scores: Record<'in' | 'out', DirectionScore>,
  tolerance: (typeof TOLERANCE)['model'],
) {
  for (const direction of ['in', 'out'] as const) {
    const f = figures(scores[direction]);
    expect(f.countErrorPct, direction).toBeLessThanOrEqual(tolerance.countErrorPct);
    expect(f.precision, direction).toBeGreaterThanOrEqual(tolerance.precision);
    expect(f.recall, direction).toBeGreaterThanOrEqual(tolerance.recall);
  }
}

describe.skipIf(!present)('entrance crossings on the hand-counted hive runs', () => {
  it('the labelled boxes, tracked and counted, match the hand tallies within the tolerance', async () => {
    const [all, card] = await Promise.all([runs(), loadModelCard(MODEL_CARD)]);
    expect(all.length).toBeGreaterThan(0);
    const options = trackerOptionsFor(
      FPS,
      { score: card.thresholds.score, perClass: card.thresholds.perClass ?? {} },
      card.thresholds.trackScore,
    );
    const scores = all.map((run) => {
      const traffic = countTraffic(trackLabelledBoxes(run.sequence.frames, options), run.entrance, {
        ...HIVE_FRAME,
        sampleFps: FPS,
        durationS: run.sequence.images.length / FPS,
      });
      const score = scoreCrossings(traffic.events, run.labels, 1);
      console.log(
        `hive-crossings (labels) ${run.clip}: ${JSON.stringify({ in: figures(score.in), out: figures(score.out) })}`,
      );
      return score;
    });
    expectWithin(sumCrossings(scores), TOLERANCE.labels);
  });

  it('hivesight eval on the clips matches the hand tallies within the tolerance', async () => {
    const all = await runs();
    dir = await mkdtemp(path.join(tmpdir(), 'hivesight-hive-crossings-'));
    for (const run of all) {
      const clip = await cachedFrameClip(
        run.sequence.images,
        // Encoding 107 4K frames takes minutes on a loaded machine.
        { tools: resolveMediaTools(), limits: { ...DEFAULT_LIMITS, timeoutMs: 1_500_000 } },
        { fps: FPS },
      );
      try {
        await copyFile(clip.file, path.join(dir, `${run.clip}.mp4`));
      } finally {
        await clip.remove();
      }
      for (const suffix of ['.crossings.csv', '.entrance.json']) {
        await copyFile(
          path.join(HAND_COUNTED_DIR, run.clip + suffix),
          path.join(dir, run.clip + suffix),
        );
      }
    }
    const result = await execa('node', [CLI, 'eval', dir, '--json'], {
      reject: false,
      env: { NO_COLOR: '1' },
      extendEnv: true,
      timeout: 1_500_000,
    });
    expect(result.exitCode, result.stderr).toBe(0);
    const report = JSON.parse(result.stdout) as {
      crossings: {
        clips: ({ clip: string } & Record<'in' | 'out', DirectionScore>)[];
        total: Record<'in' | 'out' | 'loop', DirectionScore>;
      };
    };
    expect(report.crossings.clips.map((c) => c.clip).sort()).toEqual(
      all.map((r) => `${r.clip}.mp4`).sort(),
    );
    for (const c of report.crossings.clips) {
      console.log(
        `hive-crossings (model) ${c.clip}: ${JSON.stringify({ in: figures(c.in), out: figures(c.out) })}`,
      );
    }
    console.log(`hive-crossings (model) total: ${JSON.stringify(report.crossings.total)}`);
    expectWithin(report.crossings.total, TOLERANCE.model);
  }, 1_800_000);
});

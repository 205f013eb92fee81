/**
 * The shipped model's accuracy, through the real CLI (`hivesight eval`, the production decode and
 * detector), on the validation data in ../shared/datasets. Skips with a message when the
 * datasets (or the model) are absent.
 *
 * Gates: set a little below what the current model reaches, so a regression fails CI while
 * normal run-to-run noise does not. Raise them when a better model ships.
 *   bees-hornets/valid: AP50 bee >= MIN_AP50.bee, hornet >= MIN_AP50.hornet
 *   pollen-crops:       accuracy >= MIN_CROP_ACCURACY
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const DATASETS = path.resolve(ROOT, '../shared/datasets');
const BEES_HORNETS = path.join(DATASETS, 'bees-hornets/valid');
const POLLEN_CROPS = path.join(DATASETS, 'pollen-crops');
const MODEL_CARD = path.join(ROOT, 'models/hivesight-detector.card.json');

// Permissive starting gates (see the header). The model shipped now is a 1-epoch integration
// build (its card: training-val AP50 honeybee 0.0009, hornet 0.006, crop accuracy 0.51), so the
// AP gates only prove the pipeline runs; raise them to just below `hivesight eval`'s numbers when
// the trained model lands (e.g. bee 0.5, hornet 0.5, crops 0.7).
const MIN_AP50 = { bee: 0, hornet: 0 };
const MIN_CROP_ACCURACY = 0.4;

const hasModel = existsSync(MODEL_CARD);
if (!hasModel) console.warn(`model-accuracy: ${MODEL_CARD} is missing; skipping.`);
for (const folder of [BEES_HORNETS, POLLEN_CROPS]) {
  if (!existsSync(folder)) console.warn(`model-accuracy: ${folder} is absent; its test skips.`);
}

async function evalJson(dataset: string, gates: string[]) {
  const result = await execa(
    'node',
    [path.join(ROOT, 'bin/hivesight.mjs'), 'eval', dataset, '--json', ...gates],
    {
      cwd: ROOT,
      reject: false,
      timeout: 600_000,
    },
  );
  return { result, report: JSON.parse(result.stdout || '{}') as Record<string, unknown> };
}

describe('model accuracy', () => {
  it.skipIf(!hasModel || !existsSync(BEES_HORNETS))(
    'reaches the AP50 gates on bees-hornets/valid',
    async () => {
      const { result, report } = await evalJson(BEES_HORNETS, [
        '--min-ap50',
        `bee=${MIN_AP50.bee},hornet=${MIN_AP50.hornet}`,
      ]);
      console.info(
        `bees-hornets/valid: ${JSON.stringify(report.classes)} count error ${String(report.count_error_pct)} %`,
      );
      expect(result.exitCode, result.stderr).toBe(0);
      expect(report.images).toBe(124);
    },
    600_000,
  );

  it.skipIf(!hasModel || !existsSync(POLLEN_CROPS))(
    'reaches the accuracy gate on pollen-crops',
    async () => {
      const { result, report } = await evalJson(POLLEN_CROPS, [
        '--min-accuracy',
        String(MIN_CROP_ACCURACY),
      ]);
      console.info(
        `pollen-crops: accuracy ${String(report.accuracy)} ${JSON.stringify(report.classes)}`,
      );
      expect(result.exitCode, result.stderr).toBe(0);
      expect(report.images).toBe(565);
    },
    600_000,
  );
});

/**
 * The first hive-entrance validation frame in ../shared/datasets, for the end-to-end tests that
 * need a real hive picture; `present` is false (and the tests skip) where the datasets are absent.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const HIVE = path.resolve(ROOT, '../shared/datasets/hive-entrance/images');
const VAL = readFileSync(path.join(ROOT, 'training/splits/hive-entrance-val.txt'), 'utf8')
  .split(/\s+/)
  .filter(Boolean);
const FIRST_VAL = VAL[0];

/** The validation frames' paths, in recording order (consecutive frames of one clip). */
export const HIVE_VAL_FRAMES = VAL.map((name) => path.join(HIVE, name));

/** Its path, or '' where the split names none. */
export const HIVE_FRAME = FIRST_VAL ? path.join(HIVE, FIRST_VAL) : '';

export function hiveFramePresent(test: string): boolean {
  const present = HIVE_FRAME !== '' && existsSync(HIVE_FRAME);
  if (!present)
    console.warn(`${test}: ${HIVE_FRAME || 'the hive-entrance split'} is absent; skipping.`);
  return present;
}

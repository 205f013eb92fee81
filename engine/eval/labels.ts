/**
 * Maps dataset label names (as written in `classes.txt`, `data.yaml` or crop folder names) to the
 * classes the evaluation scores. Besides the product classes there is one special class,
 * `honeybee`: datasets that label every honeybee with one generic name (`Bees`) are matched
 * against any honeybee prediction (bee, pollen, drone), since they cannot tell them apart.
 */
import { DatasetError } from '../errors.ts';
import { isProductClass } from '../types.ts';
import type { ProductClass } from '../types.ts';

export type EvalClass = ProductClass | 'honeybee';

/** Built-in names, lower case. Extra ones come from `--map LABEL=CLASS`. */
const BUILT_IN: Record<string, EvalClass> = {
  'worker-bee-no-pollen': 'bee',
  'worker-bee-pollen': 'pollen',
  'drone-bee': 'drone',
  // backyard-entrance labels 8 queens; the product has no queen class and counts her as a worker.
  queen: 'bee',
  drone: 'drone',
  hornet: 'hornet',
  hornets: 'hornet',
  wasp: 'wasp',
  wasps: 'wasp',
  pollen: 'pollen',
  no_pollen: 'bee',
  bee: 'honeybee',
  bees: 'honeybee',
  honeybee: 'honeybee',
  honeybees: 'honeybee',
};

export type LabelMap = ReadonlyMap<string, EvalClass>;

export function isEvalClass(value: string): value is EvalClass {
  return value === 'honeybee' || isProductClass(value);
}

/** The built-in names plus `extra` (keys compared case-insensitively; extra wins). */
export function buildLabelMap(extra: Readonly<Record<string, string>> = {}): LabelMap {
  const map = new Map<string, EvalClass>(Object.entries(BUILT_IN));
  for (const [label, cls] of Object.entries(extra)) {
    const target = cls.trim().toLowerCase();
    if (!isEvalClass(target)) {
      throw new DatasetError(
        `Cannot map label "${label}" to "${cls}": the classes are bee, pollen, drone, wasp, hornet and honeybee (any honeybee).`,
      );
    }
    map.set(label.trim().toLowerCase(), target);
  }
  return map;
}

/** Parses `LABEL=CLASS` pairs (the `--map` flag). */
export function parseLabelMappings(pairs: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pair of pairs) {
    const eq = pair.lastIndexOf('=');
    const label = pair.slice(0, eq).trim();
    const cls = pair.slice(eq + 1).trim();
    if (eq <= 0 || !label || !cls) {
      throw new DatasetError(`Label mapping "${pair}" is not of the form LABEL=CLASS.`);
    }
    out[label] = cls;
  }
  return out;
}

export function mapLabel(map: LabelMap, label: string): EvalClass | undefined {
  return map.get(label.trim().toLowerCase());
}

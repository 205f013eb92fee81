// The file detail answer (GET /api/files/:id) turned into what the detail screen shows.

import { isHoneybee, PRODUCT_CLASSES } from '../../../contract/classes.ts';
import type { ProductClass } from '../../../contract/classes.ts';

export type ClassKey = ProductClass;

const CLASS_LABELS: Record<ClassKey, string> = {
  bee: 'Worker bees',
  pollen: 'Bees with pollen',
  drone: 'Drones',
  wasp: 'Wasps',
  hornet: 'Asian hornets',
};

/** The product's classes in report order, with the labels the count cards show. */
export const CLASSES = PRODUCT_CLASSES.map((key) => ({ key, label: CLASS_LABELS[key] }));

export interface CountCell {
  key: ClassKey;
  label: string;
  /** null: the model cannot detect this class, or the plan does not include it. */
  value: number | null;
  /** Why a null value is missing: the plan, or the model. */
  missing?: 'plan' | 'model';
}

export function countCells(
  counts: Partial<Record<ClassKey, number | null>> | null,
  options: { researchPlan?: boolean; modelClasses?: readonly string[] } = {},
): CountCell[] {
  return CLASSES.map(({ key, label }) => {
    const v = counts?.[key];
    if (typeof v === 'number' && Number.isFinite(v)) return { key, label, value: v };
    // A class the model cannot see is "not available" whatever the plan.
    const detectable = options.modelClasses?.includes(key) ?? true;
    // Wasp and hornet counts come with the Researcher plan (decisions.md 4).
    const byPlan = detectable && options.researchPlan === false && !isHoneybee(key);
    return { key, label, value: null, missing: byPlan ? 'plan' : 'model' };
  });
}

/** The class as a sentence names it ("no wasp class", "no hornet counts"). */
const CLASS_NOUNS: Record<ClassKey, string> = {
  bee: 'worker bee',
  pollen: 'pollen',
  drone: 'drone',
  wasp: 'wasp',
  hornet: 'hornet',
};

/** A count, or why there is none: the model cannot see the class, or the plan leaves it out. */
export function countText(cell: Pick<CountCell, 'key' | 'value' | 'missing'>): string {
  if (cell.value !== null) return String(cell.value);
  const noun = CLASS_NOUNS[cell.key];
  return cell.missing === 'plan'
    ? `your plan has no ${noun} counts`
    : `not available: this model has no ${noun} class`;
}

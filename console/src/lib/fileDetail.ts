// The file detail answer (GET /api/files/:id) turned into what the detail screen shows.

export const CLASSES = [
  { key: 'bee', label: 'Worker bees' },
  { key: 'pollen', label: 'Bees with pollen' },
  { key: 'drone', label: 'Drones' },
  { key: 'wasp', label: 'Wasps' },
  { key: 'hornet', label: 'Asian hornets' },
] as const;

export type ClassKey = (typeof CLASSES)[number]['key'];

/** Wasp and hornet counts come with the Researcher plan (decisions.md 4). */
const RESEARCH_CLASSES: readonly ClassKey[] = ['wasp', 'hornet'];

export interface CountCell {
  key: ClassKey;
  label: string;
  /** null: the model cannot detect this class, or the plan does not include it. */
  value: number | null;
  /** Why a null value is missing: the plan, or the model. */
  missing?: 'plan' | 'model';
}

export function countCells(
  counts: unknown,
  options: { researchPlan?: boolean; modelClasses?: readonly string[] } = {},
): CountCell[] {
  const c = counts && typeof counts === 'object' ? (counts as Record<string, unknown>) : {};
  return CLASSES.map(({ key, label }) => {
    const v = c[key];
    if (typeof v === 'number' && Number.isFinite(v)) return { key, label, value: v };
    // A class the model cannot see is "not available" whatever the plan.
    const detectable = options.modelClasses?.includes(key) ?? true;
    const byPlan = detectable && options.researchPlan === false && RESEARCH_CLASSES.includes(key);
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

// The file detail answer (GET /api/files/:id) turned into what the detail screen shows.

export const CLASSES = [
  { key: 'bee', label: 'Worker bees' },
  { key: 'pollen', label: 'Bees with pollen' },
  { key: 'drone', label: 'Drones' },
  { key: 'wasp', label: 'Wasps' },
  { key: 'hornet', label: 'Asian hornets' },
] as const;

export type ClassKey = (typeof CLASSES)[number]['key'];

export interface CountCell {
  key: ClassKey;
  label: string;
  /** null: the model cannot detect this class (or the plan does not include it). */
  value: number | null;
}

export function countCells(counts: unknown): CountCell[] {
  const c = counts && typeof counts === 'object' ? (counts as Record<string, unknown>) : {};
  return CLASSES.map(({ key, label }) => {
    const v = c[key];
    return { key, label, value: typeof v === 'number' && Number.isFinite(v) ? v : null };
  });
}

export function countText(value: number | null): string {
  return value === null ? 'not available' : String(value);
}

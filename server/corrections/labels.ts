/**
 * A corrected frame's labels: canonical boxes in the still's pixels, one product class each
 * (`bee` is the worker without pollen). Checks what a save may hold and says in plain words
 * what is wrong; the counts a corrected frame stands for.
 */
import type { Box, ClassCounts, ProductClass } from '../../engine/vocabulary.ts';
import { PRODUCT_CLASSES, isProductClass } from '../../engine/vocabulary.ts';
import { ValidationError } from '../errors.ts';

export interface Label {
  cls: ProductClass;
  box: Box;
}

/** Smallest box side a label may have, in pixels: smaller ones are slips of the pointer. */
export const MIN_BOX_PX = 4;
/** Most labels one frame may hold (far beyond any entrance; stops abuse). */
export const MAX_LABELS = 1000;

const round1 = (n: number) => Math.round(n * 10) / 10;

/**
 * Parses a request's `labels` against a still of `width` x `height`. Boxes are clamped to the
 * picture (a box dragged half out keeps its inside part), then refused below MIN_BOX_PX.
 */
export function parseLabels(raw: unknown, width: number, height: number): Label[] {
  const fail = (message: string): never => {
    throw new ValidationError(message, { labels: message });
  };
  if (!Array.isArray(raw)) return fail('labels must be a list of boxes.');
  if (raw.length > MAX_LABELS) return fail(`A frame can hold at most ${MAX_LABELS} boxes.`);
  return raw.map((item: unknown, i): Label => {
    const n = i + 1;
    const entry = (item ?? {}) as { cls?: unknown; box?: Partial<Record<keyof Box, unknown>> };
    if (!isProductClass(entry.cls))
      return fail(`Box ${n} has no class: choose worker, pollen, drone, wasp or hornet.`);
    const b = entry.box ?? {};
    const [x, y, w, h] = [b.x, b.y, b.width, b.height];
    if (![x, y, w, h].every((v) => typeof v === 'number' && Number.isFinite(v)))
      return fail(`Box ${n} needs numeric x, y, width and height.`);
    const x0 = Math.max(0, x as number);
    const y0 = Math.max(0, y as number);
    const x1 = Math.min(width, (x as number) + (w as number));
    const y1 = Math.min(height, (y as number) + (h as number));
    if (x1 - x0 < MIN_BOX_PX || y1 - y0 < MIN_BOX_PX)
      return fail(
        `Box ${n} is smaller than ${MIN_BOX_PX} pixels inside the picture: draw it around the whole insect, or delete it.`,
      );
    return {
      cls: entry.cls,
      box: { x: round1(x0), y: round1(y0), width: round1(x1 - x0), height: round1(y1 - y0) },
    };
  });
}

/**
 * One label as a comparable key: class and box to the whole pixel. A saved label comes through
 * `parseLabels` at 0.1 px, so the other side is rounded to 0.1 px first too: the model's box at
 * x 41.46 is saved as 41.5, and rounding 41.46 straight to 41 against 41.5's 42 would call an
 * untouched box moved.
 */
function key(l: { cls: string; box: Box }): string {
  const { x, y, width, height } = l.box;
  return [l.cls, ...[x, y, width, height].map((v) => Math.round(round1(v)))].join(':');
}

/** Whether two label sets are the same boxes and classes (order does not matter). */
export function sameLabels(a: readonly Label[], b: readonly { cls: string; box: Box }[]): boolean {
  if (a.length !== b.length) return false;
  const left = a.map(key).sort();
  const right = b.map(key).sort();
  return left.every((k, i) => k === right[i]);
}

/**
 * The counts a corrected frame stands for: its labels per class. A class the model cannot
 * detect stays "not available" (null) unless the beekeeper labelled one.
 */
export function labelCounts(labels: readonly Label[], modelCounts?: ClassCounts): ClassCounts {
  const counts = Object.fromEntries(PRODUCT_CLASSES.map((c) => [c, 0])) as ClassCounts;
  for (const l of labels) counts[l.cls] = (counts[l.cls] ?? 0) + 1;
  if (modelCounts) {
    for (const c of PRODUCT_CLASSES)
      if (modelCounts[c] === null && counts[c] === 0) counts[c] = null;
  }
  return counts;
}

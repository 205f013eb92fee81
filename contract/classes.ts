/**
 * The product's classes, in report order (decisions.md section 2), as the API names them. The
 * engine has its own copy (engine/types.ts); contract.test.ts checks that the two agree, so that
 * the console need not load the engine to know them.
 */
export const PRODUCT_CLASSES = ['bee', 'pollen', 'drone', 'wasp', 'hornet'] as const;
export type ProductClass = (typeof PRODUCT_CLASSES)[number];

/** Honeybee classes: shown on every plan; wasps and hornets are research data. */
export const HONEYBEE_CLASSES = [
  'bee',
  'pollen',
  'drone',
] as const satisfies readonly ProductClass[];
export type HoneybeeClass = (typeof HONEYBEE_CLASSES)[number];

export function isHoneybee(cls: string): cls is HoneybeeClass {
  return (HONEYBEE_CLASSES as readonly string[]).includes(cls);
}

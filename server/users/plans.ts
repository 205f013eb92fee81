/**
 * Plans and limits (decisions.md 4). No product = Free Forever. A product is active while its
 * end date is today or later (and its start date today or earlier). The upload limit is the
 * largest among active products; queue priority likewise (researcher 2, premium 1, free 0).
 */
import type { Db } from '../db.ts';
import { activeProductNames } from './products-repository.ts';

export const PREMIUM = 'Bees Premium Subscription';
export const RESEARCHER = 'Researcher';
export const PRODUCT_NAMES = [PREMIUM, RESEARCHER] as const;
export type ProductName = (typeof PRODUCT_NAMES)[number];

const MB = 1024 * 1024;
export const FREE_MAX_FILE_SIZE = 10 * MB;
const MAX_FILE_SIZE: Record<ProductName, number> = { [PREMIUM]: 20 * MB, [RESEARCHER]: 50 * MB };
const PRIORITY: Record<ProductName, number> = { [PREMIUM]: 1, [RESEARCHER]: 2 };

export function isProductName(s: string): s is ProductName {
  return (PRODUCT_NAMES as readonly string[]).includes(s);
}

/** Distinct names of the user's active products on `day` (YYYY-MM-DD), in a stable order. */
export async function activeProducts(db: Db, userId: number, day: string): Promise<ProductName[]> {
  const names = new Set(await activeProductNames(db, userId, day));
  return PRODUCT_NAMES.filter((n) => names.has(n));
}

export function maxFileSize(products: readonly ProductName[]): number {
  return Math.max(FREE_MAX_FILE_SIZE, ...products.map((p) => MAX_FILE_SIZE[p]));
}

export function queuePriority(products: readonly ProductName[]): number {
  return Math.max(0, ...products.map((p) => PRIORITY[p]));
}

/** Researcher plan holders get wasp/hornet columns and hornet alerts. */
export function isResearcher(products: readonly ProductName[]): boolean {
  return products.includes(RESEARCHER);
}

/**
 * What a user's active products mean for files (decisions.md 4), on top of server/users/plans.ts:
 * the upload size limit, the queue priority and whether research classes (wasps, hornets) show.
 */
import type { Knex } from 'knex';
import { activeProducts, isResearcher, maxFileSize, queuePriority } from '../users/plans.ts';

export interface Plan {
  maxFileSize: number;
  priority: number;
  researcher: boolean;
}

/** `today` is YYYY-MM-DD (UTC), the format subscription dates are stored in. */
export async function planFor(db: Knex, userId: number, today: string): Promise<Plan> {
  const products = await activeProducts(db, userId, today);
  return {
    maxFileSize: maxFileSize(products),
    priority: queuePriority(products),
    researcher: isResearcher(products),
  };
}

/** "10 MB" style text for messages (1024-based, like the console). */
export function sizeText(bytes: number): string {
  const mb = bytes / (1024 * 1024);
  return Number.isInteger(mb) ? `${mb} MB` : `${mb.toFixed(1)} MB`;
}

/**
 * What a user's active products mean for files (decisions.md 4), on top of server/users/plans.ts:
 * the upload size limit, the queue priority and whether research classes (wasps, hornets) show.
 */
import type { Db } from '../db.ts';
import { activeProducts, isResearcher, maxFileSize, queuePriority } from '../users/plans.ts';

/** Free Forever's video length limit (decisions.md 4); paid plans have only the server's. */
export const FREE_MAX_VIDEO_SECONDS = 15;

export interface Plan {
  maxFileSize: number;
  priority: number;
  researcher: boolean;
  /** Longest video the plan accepts, seconds; null: no limit beyond the server's own. */
  maxVideoSeconds: number | null;
}

/** The plan's refusal of a video longer than it allows. */
export function videoTooLongMessage(limitS: number, durationS: number): string {
  return `The Free Forever plan accepts videos up to ${limitS} seconds; this one is ${durationS.toFixed(1)} seconds. Please trim it to ${limitS} seconds or less, or ask about the Researcher plan for longer videos.`;
}

/** `today` is YYYY-MM-DD (UTC), the format subscription dates are stored in. */
export async function planFor(db: Db, userId: number, today: string): Promise<Plan> {
  const products = await activeProducts(db, userId, today);
  return {
    maxFileSize: maxFileSize(products),
    priority: queuePriority(products),
    researcher: isResearcher(products),
    maxVideoSeconds: products.length === 0 ? FREE_MAX_VIDEO_SECONDS : null,
  };
}

/** "10 MB" style text for messages (1024-based, like the console). */
export function sizeText(bytes: number): string {
  const mb = bytes / (1024 * 1024);
  return Number.isInteger(mb) ? `${mb} MB` : `${mb.toFixed(1)} MB`;
}

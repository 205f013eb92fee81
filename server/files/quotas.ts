/**
 * Per-user limits on work (issue 44): uploads per UTC day and bytes of media kept, by plan. One
 * Free user queued 25 videos in 6 s; the daily count stops that, and the queue's round-robin by
 * owner (server/queue/jobs-repository.ts) keeps one user's batch from holding everyone else's files.
 *
 * Uploads are counted per UTC day in `upload_counts` (migration 0014) when a file is recorded
 * (`countUpload`), so deleting a file does not give its upload back; counting a video again
 * (server/locations/recount.ts) costs an analysis too and is counted the same way. Stored bytes are the sizes of the user's files whose media is still kept: pictures, and
 * videos until the retention sweep erases them (MEDIA_RETENTION_HOURS after processing), which
 * frees their room. Checked before the body is read and again in the transaction that records
 * the file, where the user's row is locked (PostgreSQL) or the single writer serialises
 * (SQLite), so concurrent uploads cannot together pass a limit.
 */
import type { Clock } from '../clock.ts';
import type { Db, DbOrTx } from '../db.ts';
import { PayloadTooLarge, RateLimited } from '../errors.ts';
import { waitText } from '../auth/rate-limit.ts';
import type { ProductName } from '../users/plans.ts';
import { PREMIUM, RESEARCHER, activeProducts } from '../users/plans.ts';
import { sizeText } from './plans.ts';
import {
  addUploadOnDay,
  keptBytes,
  keptVideosByAge,
  lockUserInTransaction,
  uploadsOnDay,
} from './quotas-repository.ts';

export interface UploadQuota {
  uploadsPerDay: number;
  storageBytes: number;
}

const MB = 1024 * 1024;
const GB = 1024 * MB;

/** The plan table: Free (no product), then each product; the most generous active one wins. */
export const FREE_QUOTA: UploadQuota = { uploadsPerDay: 20, storageBytes: 500 * MB };
export const PRODUCT_QUOTAS: Readonly<Record<ProductName, UploadQuota>> = {
  [PREMIUM]: { uploadsPerDay: 100, storageBytes: 5 * GB },
  [RESEARCHER]: { uploadsPerDay: 500, storageBytes: 20 * GB },
};

/** The user's quota; `scale` is UPLOAD_QUOTA_SCALE. */
export function quotaFor(products: readonly ProductName[], scale = 1): UploadQuota {
  const all = [FREE_QUOTA, ...products.map((p) => PRODUCT_QUOTAS[p])];
  return {
    uploadsPerDay: Math.max(1, Math.round(scale * Math.max(...all.map((q) => q.uploadsPerDay)))),
    storageBytes: Math.round(scale * Math.max(...all.map((q) => q.storageBytes))),
  };
}

export async function uploadQuota(
  db: Db,
  userId: number,
  day: string,
  scale = 1,
): Promise<UploadQuota> {
  return quotaFor(await activeProducts(db, userId, day), scale);
}

/** A storage refusal: 413 with a Retry-After when an erased video will free room. */
export class StorageQuotaExceeded extends PayloadTooLarge {
  constructor(
    message: string,
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }
}

/**
 * Refuses an upload of `sizeBytes` that would pass the user's daily count (429, Retry-After at
 * the next UTC midnight) or storage (413). Given a transaction, first locks the user's row so
 * that two uploads of one user are checked one after the other.
 */
export async function enforceQuota(
  db: DbOrTx,
  opts: {
    userId: number;
    quota: UploadQuota;
    sizeBytes: number;
    clock: Clock;
    retentionHours: number;
  },
): Promise<void> {
  const { userId, quota, sizeBytes } = opts;
  await enforceDailyCount(db, opts, 'upload');
  const kept = await keptBytes(db, userId);
  if (kept + sizeBytes > quota.storageBytes) {
    const retry = await secondsUntilRoom(db, opts, kept + sizeBytes - quota.storageBytes);
    throw new StorageQuotaExceeded(
      `Your files use ${sizeText(kept)} of your plan's ${sizeText(quota.storageBytes)} of storage` +
        (sizeBytes > 0 ? `, and this file (${sizeText(sizeBytes)}) does not fit.` : '.') +
        (retry
          ? ` Videos are erased ${opts.retentionHours} hours after processing; room frees up in about ${waitText(retry)}.`
          : ' Delete files you no longer need, or choose a plan with more storage.'),
      retry,
    );
  }
}

/**
 * Refuses one more upload or re-count (`what`) past the user's daily count: 429 with Retry-After
 * at the next UTC midnight. Given a PostgreSQL transaction, first locks the user's row, so that
 * two requests of one user are counted one after the other.
 */
export async function enforceDailyCount(
  db: DbOrTx,
  opts: { userId: number; quota: UploadQuota; clock: Clock },
  what: 'upload' | 'recount',
): Promise<void> {
  const { userId, quota, clock } = opts;
  await lockUserInTransaction(db, userId);
  const now = clock.now();
  const midnight = new Date(now);
  midnight.setUTCHours(0, 0, 0, 0);
  const today = await uploadsCounted(db, userId, now);
  if (today < quota.uploadsPerDay) return;
  const tomorrow = midnight.getTime() + 86_400_000;
  const seconds = Math.max(1, Math.ceil((tomorrow - now.getTime()) / 1000));
  const wait = `Please wait ${waitText(seconds)} (until midnight UTC)`;
  throw new RateLimited(
    what === 'upload'
      ? `You have uploaded ${today} files today, your plan's daily limit. ${wait} to upload more.`
      : `Uploads and re-counts share your plan's daily limit of ${quota.uploadsPerDay}, ` +
          `and ${today} are used today. ${wait} to count this video again.`,
    seconds,
  );
}

/** The uploads and re-counts counted for the user on `now`'s UTC day. */
export async function uploadsCounted(db: DbOrTx, userId: number, now: Date): Promise<number> {
  return uploadsOnDay(db, userId, dayOf(now));
}

/**
 * Counts one accepted upload, or one re-count of a video, for the user's UTC day (in the
 * transaction recording it).
 */
export async function countUpload(db: DbOrTx, userId: number, now: Date): Promise<void> {
  await addUploadOnDay(db, userId, dayOf(now));
}

function dayOf(d: Date): string {
  return d.toISOString().slice(0, 10);
}

/** Seconds until erasing processed videos frees `needed` bytes; undefined if it never will. */
async function secondsUntilRoom(
  db: DbOrTx,
  opts: { userId: number; clock: Clock; retentionHours: number },
  needed: number,
): Promise<number | undefined> {
  // Retention counts from the first processing (a re-count does not move it).
  let freed = 0;
  for (const v of await keptVideosByAge(db, opts.userId)) {
    freed += v.size_bytes;
    if (freed >= needed) {
      const erasedAt = Date.parse(v.since) + opts.retentionHours * 3_600_000;
      return Math.max(1, Math.ceil((erasedAt - opts.clock.now().getTime()) / 1000));
    }
  }
  return undefined;
}

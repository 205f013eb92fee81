/**
 * Sliding-window rate limiter kept in the database (table `rate_limit_hits`, migration 0010), so
 * every server process counts the same attempts and a restart forgets none. One row per counted
 * attempt; keys are e.g. `signin:ip:1.2.3.4`.
 *
 * An attempt is counted against several keys at once (say per e-mail+IP, per IP and per e-mail):
 * it is inserted first and counted after, so concurrent attempts from several processes can
 * only be refused too early, never let through past a limit. A refused attempt is not counted,
 * so hammering a closed door does not keep it closed longer.
 *
 * A rule can also slow instead of (or before) refusing: past `slowAfter` hits in the window each
 * attempt is told to wait, longer and longer up to MAX_SLOWDOWN_MS. That is how a key an
 * attacker can fill for someone else (one e-mail over every address, every registration) is
 * limited without locking its owner out.
 */
import type { Clock } from '../clock.ts';
import type { Db } from '../db.ts';
import {
  countHitsSince,
  deleteHits,
  deleteHitsOfKeys,
  deleteHitsUpTo,
  hitTimeAt,
  insertHit,
} from './rate-limit-repository.ts';

export interface LimitRule {
  key: string;
  /** Refused past this many hits in the window (Infinity: never refused). */
  max: number;
  /** Slowed past this many hits in the window (absent: never slowed). */
  slowAfter?: number;
}

export type LimitResult =
  | {
      allowed: true;
      hitIds: number[];
      /** Each rule's hits in the window, this attempt included (in the rules' order). */
      counts: number[];
      /** How long to wait before answering: the longest of the rules' slow-downs, or 0. */
      delayMs: number;
    }
  | { allowed: false; retryAfterSeconds: number; refusedBy: LimitRule };

/** The first slowed attempt waits this long; each further one twice the one before. */
export const SLOWDOWN_BASE_MS = 250;
/** No attempt waits longer: a real user who is slowed still gets in within seconds. */
export const MAX_SLOWDOWN_MS = 5000;

/** The wait a rule asks of the attempt that makes `count` hits in its window. */
export function ruleSlowdownMs(rule: LimitRule, count: number): number {
  const excess = rule.slowAfter === undefined ? 0 : count - rule.slowAfter;
  if (excess <= 0) return 0;
  return Math.min(MAX_SLOWDOWN_MS, SLOWDOWN_BASE_MS * 2 ** Math.min(excess - 1, 30));
}

/** How often one process deletes hits older than the window (clock time). */
const PRUNE_EVERY_MS = 60_000;
/** Keys are cut to the column's width; e-mails are at most 320 characters. */
const MAX_KEY = 400;

export class DbRateLimiter {
  private lastPrune = 0;
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    readonly windowMs: number,
  ) {}

  /**
   * Counts one attempt against every rule; when any rule is over its max, counts none and says
   * which refused. Otherwise says how long the attempt should wait (0 under every `slowAfter`).
   */
  async hit(rules: readonly LimitRule[]): Promise<LimitResult> {
    const now = this.clock.now();
    const at = now.toISOString();
    const since = new Date(now.getTime() - this.windowMs).toISOString();
    await this.prune(now);
    const hitIds: number[] = [];
    for (const rule of rules) {
      hitIds.push(await insertHit(this.db, rule.key.slice(0, MAX_KEY), at));
    }
    let retryAfterSeconds = 0;
    let refusedBy: LimitRule | undefined;
    let delayMs = 0;
    const counts: number[] = [];
    for (const rule of rules) {
      const key = rule.key.slice(0, MAX_KEY);
      const count = await this.countSince(key, since);
      counts.push(count);
      if (count <= rule.max) {
        delayMs = Math.max(delayMs, ruleSlowdownMs(rule, count));
        continue;
      }
      // Without this attempt, `count - 1` hits are in the window; the door opens again once
      // `count - 1 - max + 1` of them have left it, i.e. when the hit at that offset expires.
      const opensWith = await hitTimeAt(
        this.db,
        key,
        since,
        hitIds,
        Math.max(0, count - 1 - rule.max),
      );
      const opensAt = opensWith ? Date.parse(opensWith) + this.windowMs : now.getTime();
      const wait = Math.max(1, Math.ceil((opensAt - now.getTime()) / 1000));
      if (wait > retryAfterSeconds) {
        retryAfterSeconds = wait;
        refusedBy = rule;
      }
    }
    if (!refusedBy) return { allowed: true, hitIds, counts, delayMs };
    await deleteHits(this.db, hitIds);
    return { allowed: false, retryAfterSeconds, refusedBy };
  }

  /** Hits of one key in the window, counting nothing. */
  async count(key: string): Promise<number> {
    const since = new Date(this.clock.now().getTime() - this.windowMs).toISOString();
    return this.countSince(key.slice(0, MAX_KEY), since);
  }

  private async countSince(key: string, since: string): Promise<number> {
    return countHitsSince(this.db, key, since);
  }

  /** Forgets every hit of these keys (a successful sign-in clears its own failures). */
  async reset(keys: readonly string[]): Promise<void> {
    if (keys.length === 0) return;
    await deleteHitsOfKeys(
      this.db,
      keys.map((k) => k.slice(0, MAX_KEY)),
    );
  }

  /** Uncounts particular hits (an attempt that turned out not to need counting). */
  async forget(hitIds: readonly number[]): Promise<void> {
    if (hitIds.length > 0) await deleteHits(this.db, hitIds);
  }

  private async prune(now: Date): Promise<void> {
    if (now.getTime() - this.lastPrune < PRUNE_EVERY_MS) return;
    this.lastPrune = now.getTime();
    await deleteHitsUpTo(this.db, new Date(now.getTime() - this.windowMs).toISOString());
  }
}

/** "14 minutes", "1 minute", "40 seconds": how long a throttled user waits, in words. */
export function waitText(seconds: number): string {
  if (seconds < 60) return `${seconds} second${seconds === 1 ? '' : 's'}`;
  const minutes = Math.ceil(seconds / 60);
  if (minutes < 120) return `${minutes} minute${minutes === 1 ? '' : 's'}`;
  const hours = Math.ceil(minutes / 60);
  return `${hours} hours`;
}

/**
 * In-memory sliding-window rate limiter (per process; good enough for one `serve` process, and
 * sign-in attempts are cheap to re-count after a restart). Keys are e.g. `signin:ip:1.2.3.4`.
 */
import type { Clock } from '../clock.ts';

export class SlidingWindowLimiter {
  private readonly hits = new Map<string, number[]>();
  constructor(
    private readonly clock: Clock,
    private readonly windowMs: number,
  ) {}

  /**
   * Records one hit for `key` and says whether it is within `max` hits per window; when not,
   * also how many seconds until the oldest hit leaves the window.
   */
  hit(key: string, max: number): { allowed: boolean; retryAfterSeconds: number } {
    const now = this.clock.now().getTime();
    const since = now - this.windowMs;
    const list = (this.hits.get(key) ?? []).filter((t) => t > since);
    if (list.length >= max) {
      this.hits.set(key, list);
      return {
        allowed: false,
        retryAfterSeconds: Math.max(1, Math.ceil((list[0]! + this.windowMs - now) / 1000)),
      };
    }
    list.push(now);
    this.hits.set(key, list);
    if (this.hits.size > 10_000) this.prune(since);
    return { allowed: true, retryAfterSeconds: 0 };
  }

  private prune(since: number): void {
    for (const [key, list] of this.hits) {
      if (list.every((t) => t <= since)) this.hits.delete(key);
    }
  }
}

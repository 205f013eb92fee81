/** Injectable time so that expiry rules (sessions, reset tokens, retention) can be tested. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** ISO 8601 UTC, the one timestamp format stored in both databases (see SCHEMA.md). */
export function isoNow(clock: Clock): string {
  return clock.now().toISOString();
}

/** Today's date as YYYY-MM-DD (UTC), the format subscriptions are stored in. */
export function today(clock: Clock): string {
  return clock.now().toISOString().slice(0, 10);
}

/**
 * `value` when it is a real calendar day written YYYY-MM-DD, else null: 2026-13-01, 2026-00-01
 * and 2026-12-32 are no day (Date refuses them) and 2026-02-30 is none either (Date would roll
 * it over to March). Every day a request names goes through here.
 */
export function calendarDay(value: unknown): string | null {
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return null;
  const t = Date.parse(`${value}T00:00:00Z`);
  return Number.isFinite(t) && new Date(t).toISOString().slice(0, 10) === value ? value : null;
}

/** A clock tests can move: `clock.advance(ms)`. */
export class ManualClock implements Clock {
  private t: number;
  constructor(start: Date | string = new Date()) {
    this.t = new Date(start).getTime();
  }
  now(): Date {
    return new Date(this.t);
  }
  advance(ms: number): void {
    this.t += ms;
  }
  set(to: Date | string): void {
    this.t = new Date(to).getTime();
  }
}

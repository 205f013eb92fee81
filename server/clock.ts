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

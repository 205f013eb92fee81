/** Waits `ms`, or less when `signal` aborts first (a loop's pause that a stop cuts short). */
export function sleepUnlessAborted(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise<void>((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done);
  });
}

/** A wait the server imposes on a request (sign-in and registration slow-downs). */
export type Sleep = (ms: number) => Promise<void>;

/** Injectable like the clock, so tests see the wait the server chose without waiting it. */
export const realSleep: Sleep = (ms) =>
  new Promise<void>((resolve) => {
    setTimeout(resolve, ms);
  });

/** For tests: keeps each wait asked for (`waits`) and returns at once. */
export class RecordingSleep {
  readonly waits: number[] = [];
  readonly sleep: Sleep = (ms) => {
    this.waits.push(ms);
    return Promise.resolve();
  };
}

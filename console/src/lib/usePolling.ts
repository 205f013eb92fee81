// Calls `load` on mount and every `intervalMs` (60 s refresh of the lists, spec section 9), and,
// while a file shown is still queued or processing, every few seconds until none is (issue 57:
// a video done 4 s after upload read "Queued" for most of a minute).
import { useEffect, useRef } from 'react';

export const REFRESH_INTERVAL_MS = 60_000;
export const BUSY_INTERVAL_MS = 3_000;

export function usePolling(load: () => void, intervalMs = REFRESH_INTERVAL_MS): void {
  const latest = useRef(load);
  latest.current = load;
  useEffect(() => {
    latest.current();
    const timer = setInterval(() => latest.current(), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs]);
}

/**
 * While `active`, calls `load` `intervalMs` after the previous call's answer (so that a slow
 * answer never piles requests up); stops as soon as `active` turns false or on unmount.
 */
export function usePollingWhile(
  active: boolean,
  load: () => Promise<unknown> | void,
  intervalMs = BUSY_INTERVAL_MS,
): void {
  const latest = useRef(load);
  latest.current = load;
  useEffect(() => {
    if (!active) return undefined;
    let live = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const tick = () => {
      timer = setTimeout(() => {
        void Promise.resolve(latest.current())
          .catch(() => undefined)
          .finally(() => {
            if (live) tick();
          });
      }, intervalMs);
    };
    tick();
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [active, intervalMs]);
}

// Calls `load` on mount and every `intervalMs` (60 s refresh of the lists, spec section 9).
import { useEffect, useRef } from 'react';

export const REFRESH_INTERVAL_MS = 60_000;

export function usePolling(load: () => void, intervalMs = REFRESH_INTERVAL_MS): void {
  const latest = useRef(load);
  latest.current = load;
  useEffect(() => {
    latest.current();
    const timer = setInterval(() => latest.current(), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs]);
}

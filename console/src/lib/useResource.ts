// One way for a component to load something: the latest answer, its failure, and a setter for
// the answer a save returns. An answer that arrives after unmount or after the inputs changed
// is dropped, so a slow request never overwrites a newer one.
import { useEffect, useState } from 'react';
import type { DependencyList } from 'react';

export interface Resource<T> {
  /** The latest answer (null until the first arrives, or while `load` is null). */
  data: T | null;
  /** The latest failure, until the next answer. */
  error: unknown;
  /** Whether a load is in flight. */
  loading: boolean;
  /** Replace the answer (with what a save returned, say). */
  setData: (next: T) => void;
}

/**
 * Calls `load` on mount and whenever `deps` change; `load` null means nothing to load yet.
 * `onError` runs once per failure (a toast, usually), while the component is still mounted.
 */
export function useResource<T>(
  load: (() => Promise<T>) | null,
  deps: DependencyList,
  onError?: (error: unknown) => void,
): Resource<T> {
  const [data, setData] = useState<T | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [loading, setLoading] = useState(load !== null);
  useEffect(() => {
    if (load === null) return undefined;
    let live = true;
    setLoading(true);
    load()
      .then((answer) => {
        if (!live) return;
        setData(answer);
        setError(null);
      })
      .catch((e: unknown) => {
        if (!live) return;
        setError(e);
        onError?.(e);
      })
      .finally(() => {
        if (live) setLoading(false);
      });
    return () => {
      live = false;
    };
    // `load` and `onError` are new closures each render; `deps` say when to load again.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, deps);
  return { data, error, loading, setData };
}

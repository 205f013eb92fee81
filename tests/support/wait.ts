/**
 * Waiting on a condition, never on the clock: `waitFor` polls `fn` every `everyMs` until it
 * returns something truthy, and fails naming what it waited for (and the last error `fn` threw).
 * No vitest imports: the stress scripts use it too.
 */
export async function waitFor<T>(
  what: string,
  fn: () => T | undefined | null | false | Promise<T | undefined | null | false>,
  timeoutMs = 120_000,
  everyMs = 50,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const v = await fn();
      if (v) return v;
    } catch (err) {
      lastError = err;
    }
    if (Date.now() > deadline) {
      const last = lastError instanceof Error ? lastError.message : JSON.stringify(lastError);
      throw new Error(`timed out waiting for ${what}${lastError ? ` (last error: ${last})` : ''}`);
    }
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/**
 * Ink (with React and Yoga) takes about half a second to load, longer than the rest of the CLI
 * together, so it is not imported at startup: the views that draw with it (`renderProgress`,
 * `renderWatchTable`) load it when they start, which only an interactive terminal asks for, so
 * `--help`, usage errors and scripted runs (pipes, CI, a researcher's batch) never pay for it.
 * The views' components read it from here.
 */
import type * as InkModule from 'ink';

let loaded: typeof InkModule | undefined;

export async function loadInk(): Promise<void> {
  loaded ??= await import('ink');
}

export function ink(): typeof InkModule {
  if (!loaded) throw new Error('Ink is used before loadInk() ran');
  return loaded;
}

/** Both output streams are a terminal: the views draw live with Ink; otherwise plain lines. */
export function interactiveTerminal(): boolean {
  return Boolean(process.stderr.isTTY && process.stdout.isTTY);
}

#!/usr/bin/env node
// Entry point for `npx hivesight`. It runs the CLI built by bin/build-cli.mjs (npm install does
// that) while the build is current, and the TypeScript sources through tsx otherwise, so that a
// fresh clone runs without a build and an edited source is never silently ignored: the build is
// current only if none of the sources it bundled changed after the build read them.
// HIVESIGHT_FROM_SOURCE=1 always runs the sources.
import { readFileSync, statSync } from 'node:fs';

const built = new URL('../dist/cli/hivesight.mjs', import.meta.url);

function buildIsCurrent() {
  if (process.env.HIVESIGHT_FROM_SOURCE === '1') return false;
  try {
    const { builtAt, inputs } = JSON.parse(
      readFileSync(new URL('../dist/cli/inputs.json', import.meta.url), 'utf8'),
    );
    statSync(built);
    return inputs.every(
      (file) => statSync(new URL(`../${file}`, import.meta.url)).mtimeMs < builtAt,
    );
  } catch {
    return false; // no build, a source gone, or an unreadable list: run the sources.
  }
}

if (buildIsCurrent()) {
  await import(built.href);
} else {
  // tsx looks for tsconfig.json in the working folder, so it is named here: run from any other
  // folder, the Ink views (.tsx) would otherwise be compiled for the classic JSX runtime and fail
  // with "React is not defined".
  const { fileURLToPath } = await import('node:url');
  const { register } = await import('tsx/esm/api');
  register({ tsconfig: fileURLToPath(new URL('../tsconfig.json', import.meta.url)) });
  await import('./cli/main.ts');
}

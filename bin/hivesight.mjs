#!/usr/bin/env node
// Entry point for `npx hivesight`. The CLI is TypeScript; tsx compiles it on the fly so that
// a fresh clone runs without a build step. tsx looks for tsconfig.json in the working folder, so
// it is named here: run from any other folder, the Ink views (.tsx) would otherwise be compiled
// for the classic JSX runtime and fail with "React is not defined".
import { fileURLToPath } from 'node:url';
import { register } from 'tsx/esm/api';

register({ tsconfig: fileURLToPath(new URL('../tsconfig.json', import.meta.url)) });
await import('./cli/main.ts');

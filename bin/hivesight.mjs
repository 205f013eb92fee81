#!/usr/bin/env node
// Entry point for `npx hivesight`. The CLI is TypeScript; tsx compiles it on the fly so that
// a fresh clone runs without a build step.
import { register } from 'tsx/esm/api';

register();
await import('./cli/main.ts');

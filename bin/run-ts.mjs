#!/usr/bin/env node
// Runs a TypeScript script (benchmarks, tools) through tsx: `node bin/run-ts.mjs file.ts args...`.
import { register } from 'tsx/esm/api';
import { pathToFileURL } from 'node:url';
import path from 'node:path';

register();
const [script, ...rest] = process.argv.slice(2);
if (!script) {
  console.error('usage: run-ts.mjs SCRIPT.ts [args...]');
  process.exit(2);
}
process.argv = [process.argv[0], path.resolve(script), ...rest];
await import(pathToFileURL(path.resolve(script)).href);

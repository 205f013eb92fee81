/**
 * The vocabulary entry stays light: nothing it imports, however indirectly, reaches onnxruntime,
 * the canvas, ffmpeg or a child process. The CLI bundles it and the server loads it at startup.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import * as vocabulary from './vocabulary.ts';

const HEAVY = ['onnxruntime-node', '@napi-rs/canvas', 'ffmpeg-static', 'execa', 'child_process'];

/** Every module specifier reachable from `file` through value imports of our own sources. */
function reachable(file: string, seen = new Map<string, string[]>()): Map<string, string[]> {
  if (seen.has(file)) return seen;
  const source = readFileSync(file, 'utf8');
  const specifiers = [
    ...source.matchAll(/^(?:import|export) (?!type )[^;]*?from '([^']+)'/gms),
  ].map((m) => m[1]!);
  seen.set(file, specifiers);
  for (const specifier of specifiers) {
    if (specifier.startsWith('.')) reachable(path.resolve(path.dirname(file), specifier), seen);
  }
  return seen;
}

describe('engine/vocabulary.ts', () => {
  it('imports nothing heavy, directly or not', () => {
    const graph = reachable(path.join(import.meta.dirname, 'vocabulary.ts'));
    expect(graph.size).toBeGreaterThan(3);
    for (const [file, specifiers] of graph) {
      for (const specifier of specifiers) {
        const name = specifier.replace(/^node:/, '');
        expect(HEAVY, `${path.basename(file)} imports ${specifier}`).not.toContain(name);
      }
    }
  });

  it('carries the types, the errors with their metadata and the report helpers', () => {
    expect(vocabulary.PRODUCT_CLASSES).toContain('hornet');
    expect(Object.keys(vocabulary.ENGINE_ERRORS)).toContain('DATASET_INVALID');
    expect(typeof vocabulary.summaryCsv).toBe('function');
    expect(typeof vocabulary.frameCsv).toBe('function');
  });
});

/**
 * The house has no import circle: no module of the product, the lab or the migrations reaches
 * itself again through its relative imports, type-only ones included (a circle of types still
 * ties the modules' meaning together, and turns into a load-order bug the day one of them gains
 * a value import).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const FOLDERS = ['bin', 'engine', 'server', 'console/src', 'lab', 'migrations', 'contract'];
const IMPORT = /^(?:import|export)\s[^'"]*?from\s+['"](\.{1,2}\/[^'"]+)['"]/gm;

function sources(dir: string): string[] {
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return [];
  }
  return entries.flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return name === 'node_modules' ? [] : sources(full);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [full] : [];
  });
}

/** Strongly connected groups of more than one module (Tarjan). */
export function circles(graph: Map<string, string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  let next = 0;
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next);
    next += 1;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const group: string[] = [];
      for (;;) {
        const w = stack.pop()!;
        onStack.delete(w);
        group.push(w);
        if (w === v) break;
      }
      if (group.length > 1) found.push(group.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

describe('import circles', () => {
  it('finds a circle where there is one', () => {
    const graph = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a']],
      ['d', ['a']],
    ]);
    expect(circles(graph)).toEqual([['a', 'b', 'c']]);
  });

  it('the product, the lab and the migrations have none', () => {
    const graph = new Map<string, string[]>();
    for (const file of FOLDERS.flatMap((f) => sources(path.join(ROOT, f)))) {
      const text = readFileSync(file, 'utf8');
      const deps = [...text.matchAll(IMPORT)].map((m) => path.resolve(path.dirname(file), m[1]!));
      graph.set(file, deps);
    }
    expect(graph.size).toBeGreaterThan(200);
    const named = circles(graph).map((c) => c.map((f) => path.relative(ROOT, f)));
    expect(named).toEqual([]);
  });
});

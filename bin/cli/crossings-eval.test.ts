import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  crossingFigures,
  evaluateCrossings,
  findCrossingClips,
  formatCrossings,
} from './crossings-eval.ts';

const score = (labelled: number, counted: number, matched: number) => ({
  labelled,
  counted,
  matched,
  missed: labelled - matched,
  extra: counted - matched,
});

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'hs-crossings-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('crossings figure', () => {
  it('sums clips per direction into precision, recall and count error', () => {
    const figures = crossingFigures([
      { in: score(4, 3, 3), out: score(2, 3, 2), loop: score(0, 0, 0) },
      { in: score(6, 6, 5), out: score(0, 1, 0), loop: score(1, 0, 0) },
    ]);
    expect(figures.in).toMatchObject({ labelled: 10, counted: 9, matched: 8, missed: 2, extra: 1 });
    expect(figures.in.precision).toBeCloseTo(8 / 9);
    expect(figures.in.recall).toBeCloseTo(0.8);
    expect(figures.in.count_error_pct).toBeCloseTo(10);
    expect(figures.out).toMatchObject({ precision: 0.5, recall: 1, count_error_pct: 100 });
    expect(figures.loop).toMatchObject({ precision: null, recall: 0, count_error_pct: 100 });
  });

  it('finds clips with their crossings and entrance, scores them with a given engine', async () => {
    await writeFile(path.join(dir, 'a.mp4'), 'not read by the fake engine');
    await writeFile(
      path.join(dir, 'a.crossings.csv'),
      'time_s,direction,class\n1.2,in,bee\n5,out,pollen\n',
    );
    await writeFile(
      path.join(dir, 'a.entrance.json'),
      '{"kind":"line","points":[[0,0.5],[1,0.5]]}',
    );
    const clips = await findCrossingClips(dir);
    expect(clips.map((c) => c.name)).toEqual(['a.mp4']);
    const seen: unknown[] = [];
    const engine = {
      analyse: (file: string, options: { entrance?: unknown }) => {
        seen.push(options.entrance);
        return Promise.resolve({
          traffic: {
            events: [
              { kind: 'in', timeS: 1.5 },
              { kind: 'in', timeS: 3 },
            ],
          },
        });
      },
    } as unknown as Parameters<typeof evaluateCrossings>[0];
    const report = await evaluateCrossings(engine, clips);
    expect(seen).toEqual([{ kind: 'line', points: [[0, 0.5], [1, 0.5]] }]); // prettier-ignore
    expect(report.total.in).toMatchObject({ labelled: 1, counted: 2, matched: 1, precision: 0.5 });
    expect(report.total.out).toMatchObject({ labelled: 1, counted: 0, recall: 0 });
    expect(formatCrossings(report)[0]).toBe('entrance crossings (1 clip, matched within 1 s):');

    await writeFile(path.join(dir, 'b.crossings.csv'), 'time_s,direction,class\n');
    await expect(findCrossingClips(dir)).rejects.toThrow(/b\.crossings\.csv has no clip/);
  });
});

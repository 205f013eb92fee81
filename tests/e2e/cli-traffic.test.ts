/**
 * Entrance traffic through the real `hivesight analyze` (real ffmpeg, the shipped ONNX model) on
 * a clip of synthetic bees walking to and from one hive slot: two go in, one comes out.
 */
import { existsSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Entrance, Traffic } from '../../engine/index.ts';
import { writeEntranceVideo } from '../../fixtures/index.ts';
import { startWatch } from '../support/watch.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CLI = path.join(ROOT, 'bin/hivesight.mjs');
const hasModel = existsSync(path.join(ROOT, 'models/hivesight-detector.card.json'));
if (!hasModel) console.warn('cli-traffic.test: the shipped model is missing; these tests skip.');

const SLOT: [number, number] = [0.5, 0.12];
let dir: string;

function hivesight(args: string[]) {
  return execa('node', [CLI, ...args], {
    cwd: dir,
    reject: false,
    env: { NO_COLOR: '1' },
    extendEnv: true,
    timeout: 180_000,
  });
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'hivesight-traffic-'));
  await writeEntranceVideo(path.join(dir, 'entrance.mp4'), {
    seconds: 9,
    // The bee coming out starts 1.6 s after the first went in: sooner, at the same spot, the
    // tracker would take the two for one bee turning round (it bridges 1 s unseen).
    walks: [
      { from: [0.2, 0.9], to: SLOT, startS: 0.2, endS: 2.4 },
      { from: SLOT, to: [0.8, 0.9], startS: 4.0, endS: 6.2 },
      { from: [0.85, 0.85], to: SLOT, startS: 6.0, endS: 8.4 },
    ],
  });
  await writeEntranceVideo(path.join(dir, 'empty.mp4'), { seconds: 1, walks: [] });
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe.skipIf(!hasModel)('analyze with an entrance', () => {
  it('counts bees in and out across a line, in the result line, the CSVs and --tracks', async () => {
    const run = await hivesight([
      'analyze', 'entrance.mp4', 'empty.mp4', '-o', 'line', '--entrance', '0,0.5,1,0.5',
      '--tracks', 'line/tracks.txt',
    ]); // prettier-ignore
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/entrance\.mp4: .*in 2, out 1, loops 0/);

    const summary = (await readFile(path.join(dir, 'line/summary.csv'), 'utf8')).trim().split('\n');
    expect(summary[0]).toMatch(
      /,mean_bees_on_screen,peak_bees_on_screen,quality,bees_in,bees_out,calibration$/,
    );
    expect(summary[1]).toMatch(/^entrance\.mp4,.*,2,1,$/);
    expect(summary[2]).toMatch(/^empty\.mp4,.*,0,0,$/);

    const frames = (await readFile(path.join(dir, 'line/entrance.csv'), 'utf8')).trim().split('\n');
    expect(frames[0]).toMatch(/,bee_coverage_pct,bees_in_cumulative,bees_out_cumulative$/);
    expect(frames.at(-1)).toMatch(/,2,1$/);
    expect(frames[1]).toMatch(/,0,0$/);

    // Several inputs: one MOT file each, named after the input's outputs.
    const mot = (await readFile(path.join(dir, 'line/tracks-entrance.txt'), 'utf8')).trim();
    const rows = mot.split('\n').map((l) => l.split(','));
    expect(rows.length).toBeGreaterThan(20);
    for (const row of rows) {
      expect(row).toHaveLength(10);
      expect(row.slice(7)).toEqual(['-1', '-1', '-1']);
      expect(Number(row[0])).toBeGreaterThanOrEqual(1);
      expect(Number(row[0])).toBeLessThanOrEqual(frames.length - 1);
      expect(Number(row[4])).toBeGreaterThan(0);
    }
    expect(new Set(rows.map((r) => r[1])).size).toBeGreaterThanOrEqual(3);
    expect(existsSync(path.join(dir, 'line/tracks-empty.txt'))).toBe(true);
  });

  it('counts with a polygon from --entrance-file, proposes the slot, and says so in --json', async () => {
    const polygon = [
      [0.35, 0],
      [0.65, 0],
      [0.65, 0.25],
      [0.35, 0.25],
    ];
    await writeFile(path.join(dir, 'slot.json'), JSON.stringify(polygon));
    const run = await hivesight([
      'analyze', 'entrance.mp4', '-o', 'poly', '--entrance-file', 'slot.json', '--json',
      '--propose-entrance', '--tracks', 'one.txt',
    ]); // prettier-ignore
    expect(run.exitCode, run.stderr).toBe(0);
    const [result] = (
      JSON.parse(run.stdout) as {
        results: {
          traffic: Traffic;
          outputs: { tracks?: string };
          proposedEntrance: { entrance: Entrance };
        }[];
      }
    ).results;
    // The result says the rate the passages were tracked at: the sample rate (experiment 016).
    expect(result!.traffic).toMatchObject({
      beesIn: 2,
      beesOut: 1,
      netFlow: 1,
      loops: 0,
      sampleFps: 5,
    });
    expect(result!.traffic.inPerMinute).toBeCloseTo(2 / (9 / 60), 5);
    expect(result!.outputs.tracks).toBe(path.join(dir, 'one.txt'));
    const [x0, y0] = result!.proposedEntrance.entrance.points[0]!;
    const [x1, y1] = result!.proposedEntrance.entrance.points[2]!;
    expect(x0 < SLOT[0] && SLOT[0] < x1 && y0 < SLOT[1] && SLOT[1] < y1).toBe(true);
  });

  it('keeps the boxes out of --json unless --detections asks for them', async () => {
    type Result = {
      counts: Record<string, number | null>;
      quality: { grade: string };
      frames: { counts: Record<string, number | null>; detections?: unknown[] }[];
      tracks: { hits: number; boxes?: unknown[] }[];
    };
    const run = (extra: string[]) =>
      hivesight(['analyze', 'entrance.mp4', '-o', 'boxes', '--json', ...extra]);
    const [plain, boxed] = await Promise.all([run([]), run(['--detections'])]);
    expect(plain.exitCode, plain.stderr).toBe(0);
    expect(boxed.exitCode, boxed.stderr).toBe(0);
    const [small] = (JSON.parse(plain.stdout) as { results: Result[] }).results;
    const [full] = (JSON.parse(boxed.stdout) as { results: Result[] }).results;

    // The default: counts, per-frame counts and quality, and no box anywhere in it.
    expect(Object.values(small!.counts).some((n) => (n ?? 0) > 0)).toBe(true);
    expect(small!.quality.grade).toBeTruthy();
    expect(small!.frames.length).toBe(full!.frames.length);
    expect(small!.frames.map((f) => f.counts)).toEqual(full!.frames.map((f) => f.counts));
    expect(small!.tracks.map((t) => t.hits)).toEqual(full!.tracks.map((t) => t.hits));
    const keys = new Set<string>();
    JSON.parse(plain.stdout, (key: string, value: unknown) => (keys.add(key), value));
    expect(keys.has('detections')).toBe(false);
    expect(keys.has('boxes')).toBe(false);
    // What is left is a few hundred bytes a frame and a track, whatever the insects on them.
    const bound = 4096 + 400 * small!.frames.length + 200 * small!.tracks.length;
    expect(plain.stdout.length).toBeLessThan(bound);

    // --detections: every frame's boxes and every track's, as counted.
    for (const frame of full!.frames) {
      const counted = Object.values(frame.counts).reduce<number>((n, c) => n + (c ?? 0), 0);
      expect(frame.detections).toHaveLength(counted);
    }
    expect(full!.frames.some((f) => (f.detections?.length ?? 0) > 0)).toBe(true);
    for (const track of full!.tracks) expect(track.boxes).toHaveLength(track.hits);
  });

  it('refuses a bad entrance before analysing anything (exit 2)', async () => {
    const line = await hivesight(['analyze', 'entrance.mp4', '--entrance', '0,0.5,2,0.5']);
    expect(line.exitCode).toBe(2);
    expect(line.stderr).toContain('0 to 1');
    await writeFile(path.join(dir, 'two.json'), '[[0,0],[1,1]]');
    const polygon = await hivesight(['analyze', 'entrance.mp4', '--entrance-file', 'two.json']);
    expect(polygon.exitCode).toBe(2);
    expect(existsSync(path.join(dir, 'hivesight-results'))).toBe(false);
  });
});

describe.skipIf(!hasModel)('watch with an entrance', () => {
  it('counts the videos arriving in the folder in and out, and refuses a bad entrance', async () => {
    const bad = await hivesight(['watch', '.', '--out', 'never', '--entrance', '0,0.5,0,0.5']);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain('two different points');
    expect(existsSync(path.join(dir, 'never'))).toBe(false);

    const inbox = path.join(dir, 'inbox');
    const out = path.join(dir, 'watched');
    await mkdir(inbox, { recursive: true });
    const watch = await startWatch(inbox, out, { cwd: dir, args: ['--entrance', '0,0.5,1,0.5'] });
    const summary = (await watch.drop(path.join(dir, 'entrance.mp4'), 'arrived.mp4'))
      .trim()
      .split('\n');
    const run = await watch.stop();
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/arrived\.mp4: .*in 2, out 1, loops 0/);
    expect(summary[0]).toMatch(/,bees_in,bees_out,calibration$/);
    expect(summary[1]).toMatch(/^arrived\.mp4,.*,2,1,$/);
    const frames = (await readFile(path.join(out, 'arrived.csv'), 'utf8')).trim().split('\n');
    expect(frames[0]).toMatch(/,bees_in_cumulative,bees_out_cumulative$/);
  });
});

describe.skipIf(!hasModel)('eval with a crossings file', () => {
  it('scores counted passages against hand-counted crossings, alone or beside a box set', async () => {
    const set = path.join(dir, 'crossings-set');
    await mkdir(set, { recursive: true });
    await copyFile(path.join(dir, 'entrance.mp4'), path.join(set, 'walk.mp4'));
    // The walks' own crossing moments of the line y = 0.5 (the fixture's ground truth).
    await writeFile(
      path.join(set, 'walk.crossings.csv'),
      'time_s,direction,class\n1.33,in,bee\n5.07,out,bee\n7.15,in,bee\n',
    );
    await writeFile(
      path.join(set, 'walk.entrance.json'),
      JSON.stringify({
        kind: 'line',
        points: [
          [0, 0.5],
          [1, 0.5],
        ],
      }),
    );
    const run = await hivesight(['eval', set, '--json']);
    expect(run.exitCode, run.stderr).toBe(0);
    const report = JSON.parse(run.stdout) as {
      kind: string;
      crossings: {
        clips: { clip: string }[];
        total: Record<string, { labelled: number; matched: number; precision: number | null }>;
      };
    };
    expect(report.kind).toBe('crossings');
    expect(report.crossings.clips.map((c) => c.clip)).toEqual(['walk.mp4']);
    expect(report.crossings.total.in).toMatchObject({ labelled: 2, matched: 2, precision: 1 });
    expect(report.crossings.total.out).toMatchObject({ labelled: 1, matched: 1, precision: 1 });

    const text = await hivesight(['eval', set]);
    expect(text.exitCode, text.stderr).toBe(0);
    expect(text.stdout).toContain('entrance crossings (1 clip, matched within 1 s):');
    expect(text.stdout).toMatch(/^in +2 +2 +2 +1\.000 +1\.000 +0\.0 %/m);

    await writeFile(path.join(set, 'lost.crossings.csv'), 'time_s,direction,class\n');
    const lost = await hivesight(['eval', set]);
    expect(lost.exitCode).toBe(1);
    expect(lost.stderr).toMatch(/lost\.crossings\.csv has no clip beside it/);
  });
});

/**
 * `hivesight analyze --calibration FILE` (issue 58) through the real CLI and the shipped model:
 * a location's calibration changes the counts, and the result line's JSON and summary.csv name
 * it (the per-frame report too); `watch --calibration` does the same for arriving files; one
 * inside the noise is not applied; a bad file is a usage error that names the problem.
 */
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Calibration } from '../../engine/vocabulary.ts';
import { randomBeeScene, writeBeeImage } from '../../fixtures/index.ts';
import { startWatch } from '../support/watch.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CLI = path.join(ROOT, 'bin/hivesight.mjs');
const CARD = path.join(ROOT, 'models/hivesight-detector.card.json');
const hasModel = existsSync(CARD);
if (!hasModel)
  console.warn('cli-calibration.test: the shipped model is missing; these tests skip.');

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

async function calibrationFile(name: string, change: Partial<Calibration>): Promise<string> {
  const card = JSON.parse(await readFile(CARD, 'utf8')) as { name: string; version: string };
  const calibration: Calibration = {
    version: 1,
    location: 'Apiary North',
    frames: 7,
    files: 3,
    date: '2026-12-03',
    model: { name: card.name, version: card.version },
    zoom: null,
    // Nothing scores above 1: every honeybee is left out.
    thresholds: { honeybee: 1 },
    gain: {
      frames: 7,
      uncalibrated_count_error_pct: 40,
      calibrated_count_error_pct: 5,
      noise_pct: 10,
      significant: true,
    },
    ...change,
  };
  const file = path.join(dir, name);
  await writeFile(file, JSON.stringify(calibration));
  return file;
}

type Counts = { bee: number; pollen: number; drone: number };
type Json = { results: Array<{ counts: Counts; calibration?: { label: string } }> };
const honeybees = (c: Counts) => c.bee + c.pollen + c.drone;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'hivesight-calibration-'));
  await writeBeeImage(path.join(dir, 'bees.png'), randomBeeScene({ count: 6, seed: 3 }));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe.skipIf(!hasModel)('analyze --calibration', () => {
  it('counts with the calibration and names it in the JSON and summary.csv', async () => {
    const plain = await hivesight(['analyze', 'bees.png', '-o', 'plain', '--json']);
    expect(plain.exitCode, plain.stderr).toBe(0);
    const before = (JSON.parse(plain.stdout) as Json).results[0]!;
    expect(honeybees(before.counts)).toBeGreaterThan(0);
    expect(before.calibration).toBeUndefined();

    const file = await calibrationFile('north.json', {});
    const run = await hivesight([
      'analyze',
      'bees.png',
      '-o',
      'cal',
      '--json',
      '--calibration',
      file,
    ]);
    expect(run.exitCode, run.stderr).toBe(0);
    const label = 'Calibrated for Apiary North on 7 corrected frames (2026-12-03)';
    expect(run.stderr).toContain(label);
    const after = (JSON.parse(run.stdout) as Json).results[0]!;
    expect(honeybees(after.counts)).toBe(0);
    expect(after.calibration?.label).toBe(label);
    const summary = (await readFile(path.join(dir, 'cal/summary.csv'), 'utf8')).trim().split('\n');
    expect(summary[0]).toMatch(/,calibration$/);
    expect(summary[1]).toMatch(new RegExp(`,${label.replace(/[()]/g, '\\$&')}$`));
    const frames = (await readFile(path.join(dir, 'cal/bees.csv'), 'utf8')).trim().split('\n');
    expect(frames[0]).toMatch(/,calibration$/);
    expect(frames[1]).toMatch(new RegExp(`,${label.replace(/[()]/g, '\\$&')}$`));
  });

  it('watch --calibration counts the arriving files with it and names it', async () => {
    const inbox = path.join(dir, 'inbox');
    const out = path.join(dir, 'watched');
    await mkdir(inbox, { recursive: true });
    const file = await calibrationFile('north-watch.json', {});
    const watch = await startWatch(inbox, out, {
      cwd: dir,
      args: ['--calibration', file],
      timeoutMs: 180_000,
    });
    const summary = (await watch.drop(path.join(dir, 'bees.png'), 'arrived.png', 120_000))
      .trim()
      .split('\n');
    const run = await watch.stop();
    expect(run.exitCode, run.stderr).toBe(0);
    const label = 'Calibrated for Apiary North on 7 corrected frames (2026-12-03)';
    expect(run.stderr).toContain(label);
    expect(summary[1]).toMatch(
      new RegExp(`^arrived\\.png,image,.*,${label.replace(/[()]/g, '\\$&')}$`),
    );
    // Every honeybee is left out by the file's threshold of 1.
    expect(summary[1]).toMatch(/^arrived\.png,image,[^,]*,1,0,0,0,/);
  });

  it('does not apply a calibration whose gain was inside the noise, and says so', async () => {
    const file = await calibrationFile('noisy.json', {
      gain: {
        frames: 5,
        uncalibrated_count_error_pct: 12,
        calibrated_count_error_pct: 10,
        noise_pct: 9,
        significant: false,
      },
    });
    const run = await hivesight([
      'analyze',
      'bees.png',
      '-o',
      'noisy',
      '--json',
      '--calibration',
      file,
    ]);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/inside the noise.*not applied/);
    const result = (JSON.parse(run.stdout) as Json).results[0]!;
    expect(honeybees(result.counts)).toBeGreaterThan(0);
    expect(result.calibration).toBeUndefined();
  });

  it('refuses a file that is not a calibration, naming the field', async () => {
    const file = path.join(dir, 'bad.json');
    await writeFile(
      file,
      JSON.stringify({ version: 1, location: 'x', thresholds: { honeybee: 2 } }),
    );
    const run = await hivesight(['analyze', 'bees.png', '-o', 'bad', '--calibration', file]);
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toMatch(/Not a calibration: .*thresholds\.honeybee/);
    expect(existsSync(path.join(dir, 'bad/summary.csv'))).toBe(false);
  });
});

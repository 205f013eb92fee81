/**
 * Issue 54 through the real `hivesight` CLI: a picture named like a spreadsheet formula comes
 * back escaped in summary.csv (item 2), and an entrance polygon that crosses itself is refused
 * before anything is analysed, with the reason (item 8).
 */
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CLI = path.join(ROOT, 'bin/hivesight.mjs');
const hasModel = existsSync(path.join(ROOT, 'models/hivesight-detector.card.json'));
if (!hasModel) console.warn('cli-input-output.test: the shipped model is missing; tests skip.');

const FORMULA_NAME = "=2+5*cmd|' -c calc'!A0.jpg";
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
  dir = await mkdtemp(path.join(tmpdir(), 'hivesight-io-'));
  await execa('ffmpeg', [
    '-hide_banner',
    '-loglevel',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    'color=c=olive:size=320x240',
    '-frames:v',
    '1',
    '-f',
    'image2',
    path.join(dir, FORMULA_NAME),
  ]);
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe.skipIf(!hasModel)('hivesight CSV and entrance input', () => {
  it('writes a file name that starts like a formula escaped in summary.csv', async () => {
    const run = await hivesight(['analyze', FORMULA_NAME, '--out', 'out']);
    expect(run.exitCode, run.stderr).toBe(0);
    const [header, row] = (await readFile(path.join(dir, 'out/summary.csv'), 'utf8')).split('\n');
    expect(header).toMatch(/^file,kind,/);
    // The name holds no comma or quote needing CSV quotes: the cell is the name after a '.
    expect(row!.startsWith(`'${FORMULA_NAME},image,`)).toBe(true);
  });

  it('refuses an entrance polygon that crosses itself (exit 2), analysing nothing', async () => {
    await writeFile(path.join(dir, 'bowtie.json'), '[[0,0],[1,1],[1,0.2],[0,1]]');
    const run = await hivesight(['analyze', FORMULA_NAME, '--entrance-file', 'bowtie.json']);
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toMatch(/--entrance-file bowtie\.json: .*crosses itself/);
    expect(existsSync(path.join(dir, 'hivesight-results'))).toBe(false);
  });
});

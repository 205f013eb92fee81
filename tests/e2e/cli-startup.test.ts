/**
 * What the CLI loads at start-up: Ink (with React and Yoga, about half a second) only where a
 * view draws with it, an interactive terminal. A resolve hook (`node --import`) notes each time
 * the CLI asks for Ink; `script` gives the CLI a terminal.
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
const hasScript = (await execa('script', ['--version'], { reject: false })).exitCode === 0;
if (!hasModel) console.warn('cli-startup.test: the detector model is missing; these tests skip.');
if (!hasScript)
  console.warn('cli-startup.test: `script` (util-linux) is missing; the terminal case skips.');

/** Registers a resolve hook that appends a line to HS_TRACE_FILE whenever `ink` is resolved. */
const TRACE_HOOK = `import { register } from 'node:module';
register('data:text/javascript,' + encodeURIComponent(\`
import { appendFileSync } from 'node:fs';
export async function resolve(specifier, context, next) {
  if (specifier === 'ink') appendFileSync(process.env.HS_TRACE_FILE, 'ink\\\\n');
  return next(specifier, context);
}\`));
`;

let dir: string;
let picture: string;
let hook: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'hs-cli-startup-'));
  picture = path.join(dir, 'entrance.png');
  await execa(
    'ffmpeg',
    ['-loglevel', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc2=s=96x64'].concat([
      '-frames:v',
      '1',
      picture,
    ]),
  );
  hook = path.join(dir, 'trace-ink.mjs');
  await writeFile(hook, TRACE_HOOK);
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function inkLoads(trace: string): Promise<boolean> {
  return existsSync(trace) && (await readFile(trace, 'utf8')).includes('ink');
}

describe.skipIf(!hasModel)('CLI start-up', () => {
  it('a scripted analyze (output piped) never loads Ink', async () => {
    const trace = path.join(dir, 'piped.trace');
    const run = await execa(
      'node',
      ['--import', hook, CLI, 'analyze', picture, '--out', path.join(dir, 'piped')],
      {
        reject: false,
        env: { HS_TRACE_FILE: trace, NO_COLOR: '1' },
        timeout: 120_000,
      },
    );
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.stderr).toContain('entrance.png');
    expect(await inkLoads(trace)).toBe(false);
  });

  it.skipIf(!hasScript)('an analyze on a terminal draws its progress with Ink', async () => {
    const trace = path.join(dir, 'terminal.trace');
    const command = [
      'node',
      '--import',
      hook,
      CLI,
      'analyze',
      picture,
      '--out',
      path.join(dir, 'tty'),
    ]
      .map((a) => `'${a.replace(/'/g, `'\\''`)}'`)
      .join(' ');
    const run = await execa('script', ['-qec', command, '/dev/null'], {
      reject: false,
      env: { HS_TRACE_FILE: trace, NO_COLOR: '1' },
      timeout: 120_000,
    });
    expect(run.exitCode, run.stdout).toBe(0);
    expect(await inkLoads(trace)).toBe(true);
  });
});

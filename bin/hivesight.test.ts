/**
 * bin/hivesight.mjs runs the built CLI only while it is current. Checked on a copy of the
 * launcher in a scratch tree whose "built" and "source" CLIs just say which one ran.
 */
import { execFile } from 'node:child_process';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '..');
let tree: string;

async function run(env: Record<string, string> = {}): Promise<string> {
  const { stdout } = await promisify(execFile)('node', [path.join(tree, 'bin/hivesight.mjs')], {
    env: { ...process.env, HIVESIGHT_FROM_SOURCE: '', ...env },
  });
  return stdout.trim();
}

async function setMtime(file: string, ms: number): Promise<void> {
  await fs.utimes(path.join(tree, file), ms / 1000, ms / 1000);
}

describe('the launcher', () => {
  const builtAt = Date.now() - 60_000;

  beforeAll(async () => {
    tree = await fs.mkdtemp(path.join(os.tmpdir(), 'hs-launcher-'));
    await fs.mkdir(path.join(tree, 'bin/cli'), { recursive: true });
    await fs.mkdir(path.join(tree, 'dist/cli'), { recursive: true });
    await fs.copyFile(path.join(ROOT, 'bin/hivesight.mjs'), path.join(tree, 'bin/hivesight.mjs'));
    await fs.copyFile(path.join(ROOT, 'tsconfig.json'), path.join(tree, 'tsconfig.json'));
    await fs.writeFile(path.join(tree, 'package.json'), '{ "type": "module" }\n');
    await fs.symlink(path.join(ROOT, 'node_modules'), path.join(tree, 'node_modules'));
    await fs.writeFile(path.join(tree, 'bin/cli/main.ts'), "console.log('source' as string);\n");
    await fs.writeFile(path.join(tree, 'dist/cli/hivesight.mjs'), "console.log('built');\n");
    await fs.writeFile(
      path.join(tree, 'dist/cli/inputs.json'),
      JSON.stringify({ builtAt, inputs: ['bin/cli/main.ts'] }),
    );
  });

  afterAll(async () => {
    await fs.rm(tree, { recursive: true, force: true });
  });

  it('runs the build while no bundled source changed after it', async () => {
    await setMtime('bin/cli/main.ts', builtAt - 1000);
    expect(await run()).toBe('built');
    expect(await run({ HIVESIGHT_FROM_SOURCE: '1' })).toBe('source');
  });

  it('runs the sources once one of them changed after the build read it', async () => {
    await setMtime('bin/cli/main.ts', builtAt + 1000);
    expect(await run()).toBe('source');
  });

  it('runs the sources when a bundled source is gone or the build is unreadable', async () => {
    await setMtime('bin/cli/main.ts', builtAt - 1000);
    await fs.writeFile(
      path.join(tree, 'dist/cli/inputs.json'),
      JSON.stringify({ builtAt, inputs: ['bin/cli/main.ts', 'bin/cli/gone.ts'] }),
    );
    expect(await run()).toBe('source');
    await fs.writeFile(path.join(tree, 'dist/cli/inputs.json'), '{');
    expect(await run()).toBe('source');
  });
});

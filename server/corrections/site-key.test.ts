import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { afterAll, describe, expect, it } from 'vitest';
import { SITE_KEY_FILE, siteHash, siteKey } from './site-key.ts';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'hs-site-key-'));
const dataDir = (name: string) => path.join(root, name);
const MODULE = fileURLToPath(new URL('./site-key.ts', import.meta.url));

afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

/** A site hash computed by a new Node process: what a restarted server or the CLI computes. */
async function hashInNewProcess(dir: string, userId: number, location: string): Promise<string> {
  const script =
    `import { siteHash, siteKey } from ${JSON.stringify(MODULE)};` +
    'const [dir, id, name] = process.argv.slice(1);' +
    'console.log(siteHash(await siteKey(dir), Number(id), name));';
  const run = await execa(
    'node',
    ['--import', 'tsx', '--input-type=module', '-e', script, dir, String(userId), location],
    { timeout: 60_000 },
  );
  return run.stdout.trim();
}

describe('site key', () => {
  it('is created once with mode 0600 and read back the same afterwards, in any process', async () => {
    const dir = dataDir('one');
    const key = await siteKey(dir);
    expect(key).toHaveLength(32);
    const file = path.join(dir, SITE_KEY_FILE);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(await siteKey(dir)).toEqual(key);
    const here = siteHash(key, 7, 'Apiary North');
    expect(await hashInNewProcess(dir, 7, 'Apiary North')).toBe(here);
    expect(fs.readdirSync(dir)).toEqual([SITE_KEY_FILE]);
  });

  it('is one key when several exports start at once in a new data folder', async () => {
    const dir = dataDir('race');
    const keys = await Promise.all(Array.from({ length: 8 }, () => siteKey(dir)));
    for (const key of keys) expect(key).toEqual(keys[0]);
    expect(fs.readdirSync(dir)).toEqual([SITE_KEY_FILE]);
  });

  it('differs between installations, and the hash is no plain sha256 of id and name', async () => {
    const a = siteHash(await siteKey(dataDir('a')), 7, 'Apiary North');
    const b = siteHash(await siteKey(dataDir('b')), 7, 'Apiary North');
    expect(a).not.toBe(b);
    expect(a).toMatch(/^[0-9a-f]{16}$/);
    // The old, guessable form, and a plain sha256 of the id and name.
    for (const text of ['hivesight-site\n7\napiary north', '7apiary north', '7Apiary North'])
      expect(createHash('sha256').update(text).digest('hex').startsWith(a.slice(0, 12))).toBe(
        false,
      );
    // One hive, one site; another owner's hive of the same name, another site.
    const key = await siteKey(dataDir('a'));
    expect(siteHash(key, 7, ' apiary NORTH ')).toBe(a);
    expect(siteHash(key, 8, 'Apiary North')).not.toBe(a);
  });

  it('refuses a damaged key file instead of replacing it', async () => {
    const dir = dataDir('damaged');
    fs.mkdirSync(dir);
    fs.writeFileSync(path.join(dir, SITE_KEY_FILE), 'not a key\n');
    await expect(siteKey(dir)).rejects.toThrow(/is not a site key/);
    expect(fs.readFileSync(path.join(dir, SITE_KEY_FILE), 'utf8')).toBe('not a key\n');
  });
});

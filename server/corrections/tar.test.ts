import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tarArchive } from './tar.ts';

const HAVE_TAR = ['/usr/bin/tar', '/bin/tar'].some((f) => fs.existsSync(f));

describe.skipIf(!HAVE_TAR)('tarArchive', () => {
  it('writes an archive the system tar lists and extracts byte for byte', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hs-tar-'));
    const jpeg = Buffer.from(Array.from({ length: 1300 }, (_, i) => i % 251));
    const file = path.join(dir, 'out.tar');
    fs.writeFileSync(
      file,
      tarArchive([
        { name: 'set/' },
        { name: 'set/images/' },
        { name: 'set/images/a-f1-00000.jpg', data: jpeg },
        { name: 'set/classes.txt', data: Buffer.from('worker-bee-no-pollen\n') },
        { name: 'set/labels/empty.txt', data: Buffer.alloc(0) },
      ]),
    );
    expect(execFileSync('tar', ['-tf', file], { encoding: 'utf8' }).trim().split('\n')).toEqual([
      'set/',
      'set/images/',
      'set/images/a-f1-00000.jpg',
      'set/classes.txt',
      'set/labels/empty.txt',
    ]);
    execFileSync('tar', ['-xf', file, '-C', dir]);
    expect(fs.readFileSync(path.join(dir, 'set/images/a-f1-00000.jpg')).equals(jpeg)).toBe(true);
    expect(fs.readFileSync(path.join(dir, 'set/classes.txt'), 'utf8')).toBe(
      'worker-bee-no-pollen\n',
    );
  });
});

/**
 * The load script's short form (issue 6, "Load"): `npm run load -- --seconds 10 --users 20`
 * against a real `hivesight serve` child. Asserts correctness only: zero error answers and every
 * upload PROCESSED with a report. No latency assertion (CI machines vary); the figures are
 * printed by the script and kept in its JSON summary.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { engineAvailable } from '../support/engine.ts';
import { ROOT } from '../support/processes.ts';

const ENGINE = await engineAvailable();
if (!ENGINE.ok) console.warn(`[load] engine unavailable (${ENGINE.why}): load test skipped`);

interface Summary {
  errors: number;
  errorExamples: string[];
  problems: string[];
  uploads: { pictures: number; videos: number; processed: number };
  routes: Array<{ route: string; requests: number; errors: number }>;
}

describe.skipIf(!ENGINE.ok)('load (short form)', () => {
  it('20 users for 10 s: no errors, every upload PROCESSED with a report', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hs-load-test-'));
    const json = path.join(dir, 'summary.json');
    try {
      const run = await promisify(execFile)(
        'npm',
        [
          'run', '--silent', 'load', '--',
          '--seconds', '10', '--users', '20', '--videos', '3', '--video-seconds', '4',
          '--upload-every', '5', '--json', json,
        ], // prettier-ignore
        { cwd: ROOT, maxBuffer: 16 * 1024 * 1024 },
      ).catch((err: { code?: number; stdout?: string; stderr?: string }) => err);
      const out = `${run.stdout ?? ''}\n${run.stderr ?? ''}`;
      expect(fs.existsSync(json), out).toBe(true);
      const summary = JSON.parse(fs.readFileSync(json, 'utf8')) as Summary;
      expect(summary.errorExamples, out).toEqual([]);
      expect(summary.errors).toBe(0);
      expect(summary.problems).toEqual([]);
      expect(summary.uploads.videos).toBe(3);
      expect(summary.uploads.pictures).toBeGreaterThan(0);
      expect(summary.uploads.processed).toBe(summary.uploads.pictures + summary.uploads.videos);
      const lists = summary.routes.find((r) => r.route === 'POST get-uploaded-files-list');
      // Every user polled (how often depends on the machine: no timing assertion).
      expect(lists?.requests).toBeGreaterThanOrEqual(20);
      expect((run as { code?: number }).code ?? 0, out).toBe(0);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 300_000);
});

import os from 'node:os';
import { defineConfig } from 'vitest/config';

/**
 * Unit and integration files, two at a time at least: vitest's default (one less than the cores)
 * is one worker on a 2-core machine, where an integration file mostly waits (on HTTP, the
 * database, ffmpeg, the worker's poll) and leaves the second core idle. Stress and e2e files run
 * after them, one at a time, as before (`fileParallelism: false` puts them in a group of their
 * own).
 */
const PARALLEL_FILES = Math.max(2, os.availableParallelism() - 1);

/**
 * The fair queue's test reads the order in which two PostgreSQL workers start their jobs: beside
 * another busy file the two claims interleave differently, so it runs in the one-at-a-time group.
 */
const ALONE = ['tests/integration/queue-fairness.test.ts'];

// Three tiers: unit tests beside the code, integration tests (real SQLite / PostgreSQL) and
// end-to-end tests (API, CLI, console in Chromium) under tests/.
export default defineConfig({
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          maxWorkers: PARALLEL_FILES,
          include: [
            'contract/**/*.test.ts',
            'engine/**/*.test.ts',
            'server/**/*.test.ts',
            'console/**/*.test.{ts,tsx}',
            'bin/**/*.test.ts',
            'lab/**/*.test.ts',
            'tests/structure/**/*.test.ts',
          ],
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          maxWorkers: PARALLEL_FILES,
          include: ['tests/integration/**/*.test.ts'],
          exclude: ALONE,
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
      {
        extends: true,
        test: {
          // Issue 6 under tests/stress/: hostile input (crafted files and requests through the
          // real server, engine and CLI), faults and load. Files run one at a time.
          name: 'stress',
          include: ['tests/stress/**/*.test.ts', ...ALONE],
          testTimeout: 120_000,
          hookTimeout: 180_000,
          fileParallelism: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts'],
          testTimeout: 240_000,
          hookTimeout: 240_000,
          // Each e2e file starts its own server and browser: run files one at a time on 2 cores.
          fileParallelism: false,
          // Tests a file marks concurrent (CLI runs, evaluations: mostly one core's work each)
          // run two at a time, which fills 2 cores without stretching each test much further.
          maxConcurrency: 2,
        },
      },
    ],
    testTimeout: 30_000,
    reporters: ['default', './tests/support/slowest-files-reporter.ts'],
  },
});

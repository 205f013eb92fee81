/**
 * Prints the ten slowest test files at the end of a run (with `npm test`, so `.ci/run` shows
 * them), so that a file which starts to dominate the suite's 12 minutes is seen where it starts.
 * The time is the file's own: import, hooks and tests.
 */
import path from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';

const SHOWN = 10;

export default class SlowestFilesReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const rows = testModules
      .map((m) => {
        const d = m.diagnostic();
        return {
          file: path.relative(process.cwd(), m.moduleId),
          ms: d.collectDuration + d.duration,
        };
      })
      .sort((a, b) => b.ms - a.ms)
      .slice(0, SHOWN);
    if (rows.length === 0) return;
    const lines = rows.map((r) => `  ${(r.ms / 1000).toFixed(1).padStart(7)} s  ${r.file}`);
    process.stdout.write(`\nSlowest ${rows.length} test files:\n${lines.join('\n')}\n`);
  }
}

/**
 * A real `hivesight watch` child for the CLI tests: started on an inbox folder, ready when its
 * log says so; a file dropped in is waited for in `summary.csv`; SIGINT stops it, as a user's
 * Ctrl-C does.
 */
import { existsSync } from 'node:fs';
import { copyFile, readFile } from 'node:fs/promises';
import path from 'node:path';
import { execa } from 'execa';
import { CLI } from './processes.ts';
import { waitFor } from './wait.ts';

export interface WatchRun {
  /** Copies `source` into the inbox as `name` and resolves with summary.csv once it lists it. */
  drop(source: string, name: string, timeoutMs?: number): Promise<string>;
  /** SIGINT, then the finished process (exit code, its whole stderr). */
  stop(): Promise<{ exitCode: number | undefined; stderr: string }>;
}

export async function startWatch(
  inbox: string,
  out: string,
  options: { cwd: string; args?: string[]; timeoutMs?: number },
): Promise<WatchRun> {
  const watcher = execa(
    'node',
    [CLI, 'watch', inbox, '--out', out, '--settle-ms', '200', ...(options.args ?? [])],
    {
      cwd: options.cwd,
      reject: false,
      env: { NO_COLOR: '1' },
      extendEnv: true,
      timeout: options.timeoutMs ?? 240_000,
    },
  );
  let stderr = '';
  watcher.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  await waitFor('watch started', () => /ready/.test(stderr), 60_000, 20);
  const summaryFile = path.join(out, 'summary.csv');
  return {
    async drop(source, name, timeoutMs = 180_000) {
      await copyFile(source, path.join(inbox, name));
      return waitFor(
        `${name} analysed`,
        async () => {
          const text = existsSync(summaryFile) ? await readFile(summaryFile, 'utf8') : '';
          return text.split('\n').some((line) => line.startsWith(`${name},`)) && text;
        },
        timeoutMs,
      );
    },
    async stop() {
      watcher.kill('SIGINT');
      const run = await watcher;
      return { exitCode: run.exitCode, stderr };
    },
  };
}

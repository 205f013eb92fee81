/**
 * The `hivesight` command line: builds the commander program, registers the commands and
 * renders every error in one place (see errors.ts for the exit codes).
 */
import { readFileSync } from 'node:fs';
import { Command } from 'commander';
import { registerAnalyzeCommand } from './commands/analyze.ts';
import { registerDatasetCommand } from './commands/dataset.ts';
import { registerEvalCommand } from './commands/eval.ts';
import { registerServerCommands } from './commands/server.ts';
import { registerWatchCommand } from './commands/watch.ts';
import { isDebug, reportError } from './errors.ts';

function packageVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    version: string;
  };
  return pkg.version;
}

export function buildProgram(): Command {
  const program = new Command('hivesight')
    .description('Hive-entrance analysis: counts bees, pollen carriers, drones, wasps and hornets.')
    .version(packageVersion())
    .option('--debug', 'show stack traces of internal errors (or HIVESIGHT_DEBUG=1)')
    .showHelpAfterError('(run with --help for usage)')
    // Throw instead of exiting, so that one handler sets the exit code (2 for usage errors).
    .exitOverride();
  registerAnalyzeCommand(program);
  registerWatchCommand(program);
  registerEvalCommand(program);
  registerServerCommands(program);
  registerDatasetCommand(program);
  return program;
}

try {
  await buildProgram().parseAsync(process.argv);
} catch (error) {
  process.exitCode = reportError(error, { debug: isDebug() });
}

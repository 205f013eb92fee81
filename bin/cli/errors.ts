/**
 * The CLI's error model. A `UserError` is something the user can fix (bad file, missing model,
 * failed gate): it prints a red message and a hint and exits 1. Usage errors exit 2. Anything
 * else is a bug in hivesight: exit 70 (EX_SOFTWARE), stack only with --debug / HIVESIGHT_DEBUG.
 */
import { CommanderError } from 'commander';
import { ENGINE_ERRORS, engineErrorCode } from '../../engine/vocabulary.ts';
import { paint } from './ui/format.ts';

export const EXIT_OK = 0;
export const EXIT_USER = 1;
export const EXIT_USAGE = 2;
export const EXIT_BUG = 70;

export class UserError extends Error {
  readonly exitCode: number = EXIT_USER;
  constructor(
    message: string,
    /** The next step to try. */
    readonly hint?: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** Wrong flags or arguments (exit 2). */
export class UsageError extends UserError {
  override readonly exitCode = EXIT_USAGE;
}

const FS_ERRORS: Record<string, string> = {
  ENOENT: 'no such file or folder',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EISDIR: 'is a folder, not a file',
  ENOTDIR: 'not a folder',
};

/** Engine errors are the user's to fix: turn them into user errors with a hint. */
export function asUserError(error: unknown): UserError | undefined {
  if (error instanceof UserError) return error;
  // By code, not class: the compiled CLI carries its own copy of the error classes, while the
  // engine it loads on demand throws those of engine/errors.ts.
  const code = engineErrorCode(error);
  if (code) {
    const message = error instanceof Error ? error.message : code;
    return new UserError(message, ENGINE_ERRORS[code].hint, { cause: error });
  }
  // A path the user gave that cannot be opened is theirs to fix, not a bug.
  const fsError = error as NodeJS.ErrnoException | undefined;
  const fsWhy = FS_ERRORS[fsError?.code ?? ''];
  if (fsError instanceof Error && fsWhy) {
    return new UserError(`${fsError.path ?? 'file'}: ${fsWhy}`, 'Check the path.', {
      cause: error,
    });
  }
  return undefined;
}

/** One line for a per-file failure (analyze, watch): the message, or "internal error: ...". */
export function describeFailure(error: unknown): string {
  const user = asUserError(error);
  if (user) return user.message;
  return `internal error: ${error instanceof Error ? error.message : String(error)}`;
}

export function isDebug(argv: readonly string[] = process.argv): boolean {
  const env = process.env.HIVESIGHT_DEBUG;
  return argv.includes('--debug') || (env !== undefined && env !== '' && env !== '0');
}

/** The one place errors are rendered. Returns the exit code. */
export function reportError(
  error: unknown,
  options: { debug: boolean; stream?: NodeJS.WritableStream },
): number {
  const out = options.stream ?? process.stderr;
  if (error instanceof CommanderError) {
    // Commander has already printed its message (or the help / version text).
    return error.exitCode === 0 ? EXIT_OK : EXIT_USAGE;
  }
  const user = asUserError(error);
  if (user) {
    out.write(`${paint.red(`error: ${user.message}`)}\n`);
    if (user.hint) out.write(`${paint.dim(`hint: ${user.hint}`)}\n`);
    if (options.debug && error instanceof Error && error.stack) out.write(`${error.stack}\n`);
    return user.exitCode;
  }
  const message = error instanceof Error ? error.message : String(error);
  out.write(`${paint.red(`internal error: ${message}`)}\n`);
  if (options.debug) {
    out.write(`${error instanceof Error && error.stack ? error.stack : String(error)}\n`);
  } else {
    out.write(
      `${paint.dim('This is a bug in hivesight. Run again with --debug (or HIVESIGHT_DEBUG=1) for the stack trace, and report it.')}\n`,
    );
  }
  return EXIT_BUG;
}

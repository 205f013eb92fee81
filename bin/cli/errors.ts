/**
 * The CLI's error model. A `UserError` is something the user can fix (bad file, missing model,
 * failed gate): it prints a red message and a hint and exits 1. Usage errors exit 2. Anything
 * else is a bug in hivesight: exit 70 (EX_SOFTWARE), stack only with --debug / HIVESIGHT_DEBUG.
 */
import { CommanderError } from 'commander';
import { EngineError } from '../../engine/errors.ts';
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

const ENGINE_HINTS: Record<string, string> = {
  UNSUPPORTED_MEDIA: 'Give an MP4, AVI, JPEG or PNG file (the content is checked, not the name).',
  CORRUPT_MEDIA: 'Check that the file opens in a media player; copy or export it again.',
  MEDIA_LIMIT: 'Trim or downscale the file (at most 10 minutes, 8192 px a side, 40 megapixels).',
  UNSAFE_MEDIA: 'Re-encode it as a plain MP4 or AVI without references to other files.',
  MEDIA_TIMEOUT: 'Decoding took too long; try a shorter clip or a lower --fps.',
  TOOL_MISSING: 'Install ffmpeg (e.g. apt-get install ffmpeg) or set FFMPEG_PATH and FFPROBE_PATH.',
  MODEL_INVALID:
    'Point --model (or HIVESIGHT_MODEL) at a model card (.card.json) or an .onnx file with its card beside it.',
  DATASET_INVALID:
    'Give a folder with images/ and labels/ (YOLO) or one folder of images per class; --map LABEL=CLASS names unknown labels.',
  CANCELLED: 'Run the command again to start over.',
};

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
  if (error instanceof EngineError) {
    return new UserError(error.message, ENGINE_HINTS[error.code], { cause: error });
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

/**
 * What a user is told when analysis or the engine fails. Engine and system errors carry text
 * for operators (absolute paths of the model card, ENOENT, the tool's location); that text goes
 * to the log, and users get one fixed sentence per error code. The engine's messages about the
 * content of the user's own file ("The video is 20 s long; the limit is 15 s.") are kept, as
 * they say what to change, unless they look like they carry a path or a system error.
 */

/** A fixed sentence per engine error code (engine/errors.ts), and for anything unexpected. */
export const FAILURE_MESSAGES: Readonly<Record<string, string>> = {
  UNSUPPORTED_MEDIA: 'The file is not a supported image or video (expected MP4, AVI, JPEG or PNG).',
  CORRUPT_MEDIA: 'The file is damaged or incomplete and cannot be read.',
  MEDIA_LIMIT: 'The file is beyond the length, resolution or frame limits for analysis.',
  UNSAFE_MEDIA: 'The file tries to open other files or URLs; it was refused.',
  MEDIA_TIMEOUT:
    'Reading the file took too long and was stopped. Please try a shorter or smaller file.',
  TOOL_MISSING:
    'The analysis service is not available right now. Please try again later; if this persists, contact the administrator.',
  MODEL_INVALID:
    'The analysis model is not available right now. Please try again later; if this persists, contact the administrator.',
  CANCELLED: 'The analysis was stopped before it finished. Please try again.',
  INTERNAL:
    'The analysis failed because of a problem on our side. Please upload the file again; if it keeps failing, contact us.',
};

/** Codes whose engine message describes the user's file and may be shown as it is. */
const CONTENT_CODES = new Set([
  'UNSUPPORTED_MEDIA',
  'CORRUPT_MEDIA',
  'MEDIA_LIMIT',
  'UNSAFE_MEDIA',
]);

/** Absolute or relative file paths, system error codes and stack frames. */
const INTERNALS =
  /(^|[\s'"(=:])(\/[^\s/]+\/|[A-Za-z]:\\|~\/|\.\.?\/)|\bE[A-Z]{3,}\b:|\n\s+at\s|node_modules|\.(ts|js|mjs|onnx|json)\b/;

export function looksInternal(text: string): boolean {
  return INTERNALS.test(text);
}

function codeOf(err: unknown): string | null {
  const code = err instanceof Error ? (err as { code?: unknown }).code : undefined;
  return typeof code === 'string' && code in FAILURE_MESSAGES ? code : null;
}

/** The sentence a user sees for `err` (engine error or anything else). */
export function userMessageFor(err: unknown): string {
  const code = codeOf(err) ?? 'INTERNAL';
  const message = err instanceof Error ? err.message : '';
  if (CONTENT_CODES.has(code) && message !== '' && !looksInternal(message))
    return message.slice(0, 500);
  return FAILURE_MESSAGES[code] ?? FAILURE_MESSAGES.INTERNAL!;
}

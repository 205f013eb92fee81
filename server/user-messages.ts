/**
 * What a user is told when analysis or the engine fails. Engine and system errors carry text
 * for operators (absolute paths of the model card, ENOENT, the tool's location); that text goes
 * to the log, and users get one fixed sentence per error code. The engine's messages about the
 * content of the user's own file ("The video is 20 s long; the limit is 15 s.") are kept, as
 * they say what to change, unless they look like they carry a path or a system error.
 */
import { ENGINE_ERRORS, engineErrorCode } from '../engine/vocabulary.ts';
import type { EngineErrorCode } from '../engine/vocabulary.ts';

/** A fixed sentence per engine error code (from the engine's list), and for anything unexpected. */
export const FAILURE_MESSAGES: Readonly<Record<EngineErrorCode | 'INTERNAL', string>> = {
  ...(Object.fromEntries(
    Object.entries(ENGINE_ERRORS).map(([code, info]) => [code, info.userMessage]),
  ) as Record<EngineErrorCode, string>),
  INTERNAL:
    'The analysis failed because of a problem on our side. Please upload the file again; if it keeps failing, contact us.',
};

/** Absolute or relative file paths, system error codes and stack frames. */
const INTERNALS =
  /(^|[\s'"(=:])(\/[^\s/]+\/|[A-Za-z]:\\|~\/|\.\.?\/)|\bE[A-Z]{3,}\b:|\n\s+at\s|node_modules|\.(ts|js|mjs|onnx|json)\b/;

export function looksInternal(text: string): boolean {
  return INTERNALS.test(text);
}

/** The sentence a user sees for `err` (engine error or anything else). */
export function userMessageFor(err: unknown): string {
  const code = engineErrorCode(err);
  if (!code) return FAILURE_MESSAGES.INTERNAL;
  // Messages about the user's own input say what to change; others are for operators.
  const message = err instanceof Error ? err.message : '';
  if (ENGINE_ERRORS[code].cause === 'input' && message !== '' && !looksInternal(message))
    return message.slice(0, 500);
  return FAILURE_MESSAGES[code];
}

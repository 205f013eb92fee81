/**
 * Typed engine errors. They say what went wrong in the user's terms; callers (server, CLI) map
 * the class to an HTTP status or an exit code. No HTTP knowledge lives here.
 */
export abstract class EngineError extends Error {
  abstract readonly code: string;
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** The content is not one of the accepted formats (whatever its name says). */
export class UnsupportedMediaError extends EngineError {
  readonly code = 'UNSUPPORTED_MEDIA';
}

/** The file claims a supported format but cannot be decoded (truncated, corrupt, empty). */
export class CorruptMediaError extends EngineError {
  readonly code = 'CORRUPT_MEDIA';
}

/** The file is well-formed but beyond a configured limit (duration, resolution, frame count). */
export class MediaLimitError extends EngineError {
  readonly code = 'MEDIA_LIMIT';
  constructor(
    message: string,
    readonly limit: 'duration' | 'resolution' | 'frames' | 'size',
  ) {
    super(message);
  }
}

/** The file tries to make the decoder open another file or URL (playlist, concat, reference). */
export class UnsafeMediaError extends EngineError {
  readonly code = 'UNSAFE_MEDIA';
}

/** A decoder process ran past its time limit and was killed. */
export class MediaTimeoutError extends EngineError {
  readonly code = 'MEDIA_TIMEOUT';
}

/** A required tool (ffmpeg, ffprobe) cannot be found or started. */
export class ToolMissingError extends EngineError {
  readonly code = 'TOOL_MISSING';
}

/** The model file or its card is missing or invalid. */
export class ModelError extends EngineError {
  readonly code = 'MODEL_INVALID';
}

/** A dataset given to eval is missing or malformed. */
export class DatasetError extends EngineError {
  readonly code = 'DATASET_INVALID';
}

/** The caller cancelled the analysis through its AbortSignal. */
export class AnalysisCancelledError extends EngineError {
  readonly code = 'CANCELLED';
}

/**
 * Every engine error class. The server's thread rebuilds errors from this list, and the test
 * beside this file fails when a class is declared without being listed here.
 */
export const ENGINE_ERROR_CLASSES = [
  UnsupportedMediaError,
  CorruptMediaError,
  MediaLimitError,
  UnsafeMediaError,
  MediaTimeoutError,
  ToolMissingError,
  ModelError,
  DatasetError,
  AnalysisCancelledError,
] as const;

export type EngineErrorCode = InstanceType<(typeof ENGINE_ERROR_CLASSES)[number]>['code'];

/** What callers need to know about an error code to tell users and decide what to do next. */
export interface EngineErrorInfo {
  /** A fixed sentence for people who must not see the engine's own text (it may name paths). */
  readonly userMessage: string;
  /** The next step for a CLI user. */
  readonly hint: string;
  /** True when trying the same input again cannot succeed. */
  readonly permanent: boolean;
  /**
   * Who has to act. `input`: the user's file or dataset; the engine's message says what to
   * change and may be shown. `installation`: a missing tool or model, or a stop, which the
   * operator has to look into. `load`: a time limit hit; neither is clearly at fault.
   */
  readonly cause: 'input' | 'installation' | 'load';
}

const SERVICE_UNAVAILABLE = 'Please try again later; if this persists, contact the administrator.';

/** The metadata of every code; a code without an entry is a type error. */
export const ENGINE_ERRORS = {
  UNSUPPORTED_MEDIA: {
    userMessage: 'The file is not a supported image or video (expected MP4, AVI, JPEG or PNG).',
    hint: 'Give an MP4, AVI, JPEG or PNG file (the content is checked, not the name).',
    permanent: true,
    cause: 'input',
  },
  CORRUPT_MEDIA: {
    userMessage: 'The file is damaged or incomplete and cannot be read.',
    hint: 'Check that the file opens in a media player; copy or export it again.',
    permanent: true,
    cause: 'input',
  },
  MEDIA_LIMIT: {
    userMessage: 'The file is beyond the length, resolution or frame limits for analysis.',
    hint: 'Trim or downscale the file (at most 10 minutes, 8192 px a side, 40 megapixels).',
    permanent: true,
    cause: 'input',
  },
  UNSAFE_MEDIA: {
    userMessage: 'The file tries to open other files or URLs; it was refused.',
    hint: 'Re-encode it as a plain MP4 or AVI without references to other files.',
    permanent: true,
    cause: 'input',
  },
  MEDIA_TIMEOUT: {
    userMessage:
      'Reading the file took too long and was stopped. Please try a shorter or smaller file.',
    hint: 'Decoding took too long; try a shorter clip or a lower --fps.',
    permanent: false,
    cause: 'load',
  },
  TOOL_MISSING: {
    userMessage: `The analysis service is not available right now. ${SERVICE_UNAVAILABLE}`,
    hint: 'Install ffmpeg (e.g. apt-get install ffmpeg) or set FFMPEG_PATH and FFPROBE_PATH.',
    permanent: false,
    cause: 'installation',
  },
  MODEL_INVALID: {
    userMessage: `The analysis model is not available right now. ${SERVICE_UNAVAILABLE}`,
    hint: 'Point --model (or HIVESIGHT_MODEL) at a model card (.card.json) or an .onnx file with its card beside it.',
    permanent: false,
    cause: 'installation',
  },
  DATASET_INVALID: {
    userMessage: 'The dataset is missing or malformed.',
    hint: 'Give a folder with images/ and labels/ (YOLO) or one folder of images per class; --map LABEL=CLASS names unknown labels.',
    permanent: true,
    cause: 'input',
  },
  CANCELLED: {
    userMessage: 'The analysis was stopped before it finished. Please try again.',
    hint: 'Run the command again to start over.',
    permanent: false,
    cause: 'installation',
  },
} as const satisfies Record<EngineErrorCode, EngineErrorInfo>;

export function isEngineErrorCode(code: unknown): code is EngineErrorCode {
  return typeof code === 'string' && Object.hasOwn(ENGINE_ERRORS, code);
}

/**
 * The engine code an error carries, recognised by its `code` rather than its class so that
 * errors rebuilt from another thread or realm count too; null for anything else.
 */
export function engineErrorCode(err: unknown): EngineErrorCode | null {
  const code = err instanceof Error ? (err as { code?: unknown }).code : undefined;
  return isEngineErrorCode(code) ? code : null;
}

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

/**
 * ffmpeg's read-ahead for a video's frames: its `fifo` muxer, and the plain `rawvideo` output
 * when the ffmpeg in use has no `fifo` (deprecated from FFmpeg 7.1; a minimal or future build,
 * named by FFMPEG_PATH, may leave it out). Internal to `engine/media`.
 */

/** Bytes of decoded frames ffmpeg may hold ready for the consumer (`readAheadOutput`). */
const READ_AHEAD_BYTES = 24 * 2 ** 20;
/** At most this many frames ahead, however small: a few cover any one inference. */
const READ_AHEAD_MAX_FRAMES = 8;

/** The `fifo` muxer's options we pass; an ffmpeg without the muxer does not know them either. */
const FIFO_OPTIONS = ['fifo_format', 'queue_size', 'drop_pkts_on_overflow', 'attempt_recovery'];

/**
 * What ffmpeg prints (at `-loglevel error`) when it has no `fifo` muxer: an unknown format name
 * ("is not a suitable output format" up to FFmpeg 6, "is not known." from 7), or, when the
 * build lacks the muxer's options as well, the option parser's refusal of the first one
 * ("Unrecognized option 'fifo_format'." then "Error splitting the argument list"). Each names
 * `fifo` or one of its options, so no message about the input file can match.
 */
const FIFO_MISSING = new RegExp(
  [
    String.raw`Requested output format 'fifo' is not`,
    String.raw`Unrecognized option '(?:${FIFO_OPTIONS.join('|')})'`,
    String.raw`Option (?:${FIFO_OPTIONS.join('|')}) not found`,
  ].join('|'),
);

/** ffmpeg binaries (by path) seen to lack the `fifo` muxer: their reads go to plain output. */
const withoutFifo = new Set<string>();

/** True when `ffmpeg`'s stderr says it cannot write through the `fifo` muxer. */
export function isFifoMissing(stderr: string): boolean {
  return FIFO_MISSING.test(stderr);
}

export function rememberFifoMissing(ffmpeg: string): void {
  withoutFifo.add(ffmpeg);
}

export function hasFifo(ffmpeg: string): boolean {
  return !withoutFifo.has(ffmpeg);
}

/**
 * ffmpeg's output options for a video's frames, written through its `fifo` muxer: the frames
 * queue (up to READ_AHEAD_BYTES, at least two frames) in ffmpeg's writer thread, and its main
 * loop decodes on. The consumer's inference runs synchronously on Node's main thread, so the
 * pipe is not read meanwhile; through the pipe alone ffmpeg would stop after its 64 KiB and wait
 * out every inference. The bytes are the same as `-f rawvideo`'s. FFmpeg 7.1 and later may warn
 * that the muxer is deprecated; it still works, and `-loglevel error` hides the warning.
 */
export function readAheadOutput(frameBytes: number): string[] {
  const frames = Math.max(
    2,
    Math.min(READ_AHEAD_MAX_FRAMES, Math.floor(READ_AHEAD_BYTES / frameBytes)),
  );
  return [
    '-c:v', 'rawvideo',
    '-f', 'fifo',
    '-fifo_format', 'rawvideo',
    '-queue_size', String(frames),
    // Full queue: wait for the consumer, never drop a frame.
    '-drop_pkts_on_overflow', '0',
    '-attempt_recovery', '0',
  ]; // prettier-ignore
}

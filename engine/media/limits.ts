/**
 * Limits on what the media layer accepts. Callers (server, CLI) pass their own; these defaults
 * keep one hostile or accidental file from taking the machine.
 */
export interface MediaLimits {
  /** Longest accepted video, seconds. */
  maxDurationS: number;
  /** Widest accepted picture or video frame, pixels. */
  maxWidth: number;
  /** Tallest accepted picture or video frame, pixels. */
  maxHeight: number;
  /** Largest accepted frame area, pixels (width x height). */
  maxPixels: number;
  /** Most frames a video may declare (native frames), and most frames decoded from it. */
  maxFrames: number;
  /**
   * Time one ffprobe run, or one decode, may spend working, milliseconds. For a decode this
   * counts only the time spent waiting on ffmpeg, not the time the consumer spends per frame.
   */
  timeoutMs: number;
}

export const DEFAULT_LIMITS: Readonly<MediaLimits> = Object.freeze({
  maxDurationS: 600,
  maxWidth: 8192,
  maxHeight: 8192,
  maxPixels: 40e6,
  maxFrames: 200_000,
  timeoutMs: 120_000,
});

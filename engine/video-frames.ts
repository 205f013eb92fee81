/**
 * A video's sampled frames as the detector sees them, and the media each is detected as. On the
 * thorough path every frame is detected as a photo, so it also comes decoded larger for the
 * detail classifier: a second ffmpeg stream over the same samples (the same `fps` filter, so
 * the two streams' frames pair up one to one). Shared by `analyseFile` and the video-frame
 * evaluation (`training/video_frames.ts`), so both run the production path.
 */
import type { DetailSizer } from './detail-frame.ts';
import { readFrames } from './media/frames.ts';
import type { MediaLimits } from './media/limits.ts';
import type { MediaTools } from './media/tools.ts';
import type { MediaInfo, MediaKind, RawFrame, VideoAnalysis } from './types.ts';

export interface VideoFrame {
  /** At the detector's input size (for `zoom`). */
  frame: RawFrame;
  /** The same frame at the detail size, on the thorough path when the detector wants one. */
  detailFrame?: RawFrame;
}

export interface VideoFrameSizer extends DetailSizer {
  inputSizeFor(
    sourceWidth: number,
    sourceHeight: number,
    zoom?: number,
  ): { width: number; height: number };
}

/** The media a video's frames are detected as: the photos' path for `thorough`. */
export function frameMedia(analysis: VideoAnalysis): MediaKind {
  return analysis === 'thorough' ? 'image' : 'video';
}

export async function* readVideoFrames(
  file: string,
  media: MediaInfo,
  deps: { detector: VideoFrameSizer; tools: MediaTools; limits: MediaLimits },
  options: { sampleFps: number; zoom: number; analysis: VideoAnalysis; signal?: AbortSignal },
): AsyncGenerator<VideoFrame> {
  const { detector, tools, limits } = deps;
  const { sampleFps, zoom, analysis, signal } = options;
  const read = (size: { width: number; height: number }) =>
    readFrames(file, media, { tools, limits, sampleFps, ...size, ...(signal ? { signal } : {}) });
  const frames = read(detector.inputSizeFor(media.width, media.height, zoom));
  const detailSize =
    analysis === 'thorough'
      ? detector.detailSizeFor(media.width, media.height, frameMedia(analysis), zoom)
      : undefined;
  if (!detailSize) {
    for await (const frame of frames) yield { frame };
    return;
  }
  const details = read(detailSize);
  try {
    for (;;) {
      const [a, b] = await Promise.all([frames.next(), details.next()]);
      // Both streams sample the same frames; should one end first, the pairs end with it.
      if (a.done || b.done) return;
      yield { frame: a.value, detailFrame: b.value };
    }
  } finally {
    // Ends both ffmpeg processes, whichever way the pairs stop (done, error, consumer break).
    await Promise.allSettled([frames.return(undefined), details.return(undefined)]);
  }
}

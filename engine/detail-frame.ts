/**
 * A photo decoded a second time, larger, for a subtype classifier that crops from more pixels
 * than the detector sees (`input.detail` on the card; `Detector.detailSizeFor`). Shared by
 * `analyseFile` and eval, so both run the production path.
 */
import { readPicture } from './media/frames.ts';
import type { MediaLimits } from './media/limits.ts';
import type { MediaTools } from './media/tools.ts';
import type { MediaInfo, MediaKind, RawFrame } from './types.ts';

export interface DetailSizer {
  detailSizeFor(
    sourceWidth: number,
    sourceHeight: number,
    media: MediaKind,
    zoom?: number,
  ): { width: number; height: number } | undefined;
}

/**
 * The detail frame of `file` (for the detector's input at `zoom`), or undefined when it is no
 * photo or the detector wants none.
 */
export async function readDetailFrame(
  file: string,
  media: MediaInfo,
  deps: { detector: DetailSizer; tools: MediaTools; limits: MediaLimits },
  signal?: AbortSignal,
  zoom = 1,
): Promise<RawFrame | undefined> {
  if (media.kind !== 'image') return undefined;
  const size = deps.detector.detailSizeFor(media.width, media.height, media.kind, zoom);
  if (!size) return undefined;
  const { tools, limits } = deps;
  return readPicture(file, media, { tools, limits, ...size, ...(signal ? { signal } : {}) });
}

/** The media layer: tool paths, limits, content sniffing, probing and frame decoding. */
export type { MediaTools } from './tools.ts';
export { resolveMediaTools } from './tools.ts';
export type { MediaLimits } from './limits.ts';
export { DEFAULT_LIMITS } from './limits.ts';
export type { SniffResult } from './sniff.ts';
export { sniffFile, UNSUPPORTED_MESSAGE } from './sniff.ts';
export type { ProbeOptions } from './probe.ts';
export { probeMedia } from './probe.ts';
export type { ReadFramesOptions } from './frames.ts';
export { readFrameAt, readFrames, readPicture } from './frames.ts';
export type { MediaFormat } from './run-tool.ts';

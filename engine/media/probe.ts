/**
 * What a file is, from its content: sniff the magic bytes (and, for pictures, the dimensions in
 * the header, before anything decodes), then ffprobe with the verified demuxer named and only
 * the `file` protocol allowed. Refuses what is beyond the limits or tries to open other files.
 */
import { stat } from 'node:fs/promises';
import {
  CorruptMediaError,
  MediaLimitError,
  UnsafeMediaError,
  UnsupportedMediaError,
} from '../errors.ts';
import type { MediaInfo, MediaKind } from '../types.ts';
import type { MediaLimits } from './limits.ts';
import { inputArgs, isProtocolRefusal, runTool, stderrTail } from './run-tool.ts';
import type { MediaFormat } from './run-tool.ts';
import { sniffFile, UNSUPPORTED_MESSAGE } from './sniff.ts';
import type { MediaTools } from './tools.ts';

export interface ProbeOptions {
  tools: MediaTools;
  limits: MediaLimits;
  signal?: AbortSignal;
  /** Told the file's kind as soon as its magic bytes say it, before ffprobe runs. */
  onKind?: (kind: MediaKind) => void;
}

/** The parts of ffprobe's JSON we read. Everything is optional: the file is hostile. */
interface ProbeStream {
  codec_type?: string;
  codec_name?: string;
  width?: number;
  height?: number;
  r_frame_rate?: string;
  avg_frame_rate?: string;
  duration?: string;
  nb_frames?: string;
  tags?: { rotate?: string };
  side_data_list?: { rotation?: number | string }[];
}
interface ProbeJson {
  streams?: ProbeStream[];
  format?: { format_name?: string; duration?: string; tags?: { creation_time?: string } };
}

const FORMAT_NAMES: Record<MediaFormat, string> = {
  mp4: 'MP4 video',
  avi: 'AVI video',
  png: 'PNG image',
  jpeg: 'JPEG image',
};

export async function probeMedia(file: string, options: ProbeOptions): Promise<MediaInfo> {
  const { tools, limits, signal } = options;
  const sizeBytes = (await stat(file)).size;
  if (sizeBytes === 0) throw new CorruptMediaError('The file is empty.');
  const sniffed = await sniffFile(file);
  const kind = sniffed.format === 'png' || sniffed.format === 'jpeg' ? 'image' : 'video';
  if (sniffed.width !== undefined && sniffed.height !== undefined) {
    checkResolution(sniffed.width, sniffed.height, limits, 'picture');
  }
  options.onKind?.(kind);

  const run = await runTool(
    tools.ffprobe,
    [...inputArgs(file, sniffed.format), '-show_streams', '-show_format', '-of', 'json'],
    { timeoutMs: limits.timeoutMs, signal, maxStdoutBytes: 4 * 1024 * 1024 },
  );
  if (isProtocolRefusal(run.stderr)) {
    throw new UnsafeMediaError('The file tries to open other files or URLs; it was refused.', {
      cause: new Error(stderrTail(run.stderr)),
    });
  }
  if (run.stdoutOverflow) {
    throw new UnsupportedMediaError('The file has an unusual structure and was refused.');
  }
  const label = FORMAT_NAMES[sniffed.format];
  if (run.code !== 0) {
    throw new CorruptMediaError(`The ${label} is damaged or incomplete and cannot be read.`, {
      cause: new Error(stderrTail(run.stderr)),
    });
  }
  let json: ProbeJson;
  try {
    json = JSON.parse(run.stdout) as ProbeJson;
  } catch (error) {
    throw new CorruptMediaError(`The ${label} cannot be read.`, { cause: error });
  }

  const stream = (json.streams ?? []).find((s) => s.codec_type === 'video');
  if (!stream) {
    throw kind === 'video'
      ? new UnsupportedMediaError(`The ${label} has no picture track (audio only?).`)
      : new CorruptMediaError(`The ${label} cannot be read.`);
  }
  if (!stream.codec_name || stream.codec_name === 'none') {
    throw new UnsupportedMediaError(`The ${label} uses a picture format that cannot be decoded.`);
  }
  const rawWidth = positiveInt(stream.width);
  const rawHeight = positiveInt(stream.height);
  if (rawWidth === undefined || rawHeight === undefined) {
    throw new CorruptMediaError(`The ${label} has no readable picture size.`);
  }

  if (kind === 'image') {
    if (rawWidth !== sniffed.width || rawHeight !== sniffed.height) {
      throw new CorruptMediaError(`The ${label} is damaged (its header sizes disagree).`);
    }
    return {
      kind,
      format: sniffed.format,
      width: rawWidth,
      height: rawHeight,
      durationS: 0,
      fps: 0,
      sizeBytes,
    };
  }

  // ffmpeg turns frames upright by their rotation metadata when decoding; report that geometry.
  const quarterTurn = Math.abs(Math.round(rotationOf(stream) / 90)) % 2 === 1;
  const width = quarterTurn ? rawHeight : rawWidth;
  const height = quarterTurn ? rawWidth : rawHeight;
  checkResolution(width, height, limits, 'video');

  const durationS = positiveNumber(json.format?.duration) ?? positiveNumber(stream.duration);
  if (durationS === undefined) {
    throw new CorruptMediaError(`The ${label} has no readable length (empty or damaged).`);
  }
  if (durationS > limits.maxDurationS) {
    throw new MediaLimitError(
      `The video is ${Math.round(durationS)} s long; the limit is ${limits.maxDurationS} s.`,
      'duration',
    );
  }
  const fps = parseRate(stream.avg_frame_rate) ?? parseRate(stream.r_frame_rate) ?? 0;
  const declaredFrames = positiveNumber(stream.nb_frames) ?? Math.ceil(durationS * fps);
  if (declaredFrames > limits.maxFrames) {
    throw new MediaLimitError(
      `The video has ${declaredFrames} frames; the limit is ${limits.maxFrames}.`,
      'frames',
    );
  }
  const recordedAt = creationTime(json.format?.tags?.creation_time);
  return {
    kind,
    format: sniffed.format,
    width,
    height,
    durationS,
    fps,
    sizeBytes,
    ...(recordedAt ? { recordedAt } : {}),
  };
}

/**
 * The container's creation time as ISO 8601 UTC, when it holds a plausible one. Cameras write
 * it; encoders without a clock write 1904 / 1970 (the format's zero), which says nothing.
 */
export function creationTime(tag: string | undefined): string | undefined {
  if (typeof tag !== 'string' || tag.length > 64) return undefined;
  const t = Date.parse(tag);
  if (!Number.isFinite(t) || t < Date.UTC(2000, 0, 1) || t > Date.UTC(2200, 0, 1)) return undefined;
  return new Date(t).toISOString();
}

function checkResolution(width: number, height: number, limits: MediaLimits, what: string): void {
  if (width > limits.maxWidth || height > limits.maxHeight || width * height > limits.maxPixels) {
    throw new MediaLimitError(
      `The ${what} is ${width}x${height} pixels; the limit is ${limits.maxWidth}x${limits.maxHeight} ` +
        `and ${Math.round(limits.maxPixels / 1e6)} megapixels.`,
      'resolution',
    );
  }
}

function rotationOf(stream: ProbeStream): number {
  for (const side of stream.side_data_list ?? []) {
    const r = Number(side.rotation);
    if (side.rotation !== undefined && Number.isFinite(r)) return r;
  }
  const tag = Number(stream.tags?.rotate);
  return Number.isFinite(tag) ? tag : 0;
}

function parseRate(rate: string | undefined): number | undefined {
  if (!rate) return undefined;
  const [num, den] = rate.split('/').map(Number);
  if (num === undefined || !Number.isFinite(num)) return undefined;
  const value = den === undefined ? num : num / den;
  return Number.isFinite(value) && value > 0 && value < 1000 ? value : undefined;
}

function positiveNumber(value: string | number | undefined): number | undefined {
  const n = Number(value);
  return value !== undefined && Number.isFinite(n) && n > 0 ? n : undefined;
}

function positiveInt(value: number | undefined): number | undefined {
  return Number.isInteger(value) && (value ?? 0) > 0 ? value : undefined;
}

export { UNSUPPORTED_MESSAGE };

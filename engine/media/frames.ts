/**
 * Decodes a probed file into RGB24 frames at the detector's input size. ffmpeg samples the video
 * (`fps=` filter), scales, and streams raw frames over its stdout pipe; the generator pulls one
 * frame at a time. A video's frames queue a few ahead in ffmpeg (`readAheadOutput`), so it
 * decodes while the consumer works; a slower consumer then pauses ffmpeg, and memory stays
 * bounded whatever the length. An ffmpeg without the `fifo` muxer that queue needs still reads
 * the same frames, through the pipe alone. No frame ever touches the disk.
 */
import { spawn } from 'node:child_process';
import { CorruptMediaError, MediaLimitError, UnsafeMediaError } from '../errors.ts';
import type { MediaInfo, RawFrame } from '../types.ts';
import type { MediaLimits } from './limits.ts';
import {
  cancelledError,
  inputArgs,
  isProtocolRefusal,
  spawnFailure,
  stderrTail,
  timeoutError,
} from './run-tool.ts';
import { hasFifo, isFifoMissing, readAheadOutput, rememberFifoMissing } from './read-ahead.ts';
import type { MediaTools } from './tools.ts';

export interface ReadFramesOptions {
  tools: MediaTools;
  limits: MediaLimits;
  /** Analysed frames per second of video (ignored for pictures). */
  sampleFps: number;
  /** Output frame size (the detector's input size). */
  width: number;
  height: number;
  /** Start decoding this many seconds into a video (one frame only is read from there). */
  startS?: number;
  signal?: AbortSignal;
}

export async function* readFrames(
  file: string,
  info: MediaInfo,
  options: ReadFramesOptions,
): AsyncGenerator<RawFrame> {
  const { tools, limits, sampleFps, width, height, signal, startS } = options;
  checkSize(width, height, limits);
  if (info.kind === 'video' && !(Number.isFinite(sampleFps) && sampleFps > 0 && sampleFps <= 120)) {
    throw new RangeError(`sampleFps must be between 0 and 120, got ${sampleFps}`);
  }
  if (signal?.aborted) throw cancelledError();

  const frameBytes = width * height * 3;
  // One frame more than allowed, so that "too many" is seen rather than silently cut off.
  const maxOut = info.kind === 'video' ? maxSampledFrames(limits, sampleFps) + 1 : 1;
  const seek = info.kind === 'video' && startS !== undefined;
  if (seek && !(Number.isFinite(startS) && (startS ?? -1) >= 0)) {
    throw new RangeError(`startS must be a time in the video, got ${startS}`);
  }
  /** A video read through: many frames, each one's inference a chance for ffmpeg to decode on. */
  const sampled = info.kind === 'video' && !seek;
  // No fps filter after a seek: it would hold back the frame at the seek point for a later one.
  const filters = sampled
    ? `fps=${sampleFps},scale=${width}:${height}:flags=bilinear`
    : `scale=${width}:${height}:flags=bilinear`;
  const head = [
    '-nostdin',
    // Before the input: ffmpeg seeks to the keyframe before and decodes on to the exact time.
    ...(seek ? ['-ss', (startS ?? 0).toFixed(3)] : []),
    ...inputArgs(file, info.format),
    '-map', '0:v:0', '-an', '-sn', '-dn',
    '-vf', filters,
    '-frames:v', String(seek ? 1 : maxOut),
    '-pix_fmt', 'rgb24',
  ]; // prettier-ignore
  const plain = [...head, '-f', 'rawvideo', 'pipe:1'];

  // The time limit counts only the time spent waiting on ffmpeg, not the consumer's time; a
  // retry without the fifo muxer goes on from what the first run left.
  let budgetMs = limits.timeoutMs;
  const allowed = info.kind === 'video' && !seek ? maxOut - 1 : 1;

  if (!sampled || !hasFifo(tools.ffmpeg)) {
    yield* run(plain, false);
    return;
  }
  const outcome = yield* run([...head, ...readAheadOutput(frameBytes), 'pipe:1'], true);
  if (outcome !== 'fifo-missing') return;
  // This ffmpeg has no fifo muxer: the same frames through the pipe alone (ffmpeg then waits
  // on the consumer between frames), now and for every later read with this binary.
  rememberFifoMissing(tools.ffmpeg);
  if (signal?.aborted) throw cancelledError();
  yield* run(plain, false);

  /**
   * One ffmpeg run. Returns 'fifo-missing' (having yielded nothing) when `fifo` output was asked
   * for and this ffmpeg refused it; every other failure is thrown.
   */
  async function* run(
    args: string[],
    fifo: boolean,
  ): AsyncGenerator<RawFrame, 'fifo-missing' | void> {
    const child = spawn(tools.ffmpeg, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let failure: Error | undefined;
    let stderr = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      if (stderr.length < 64 * 1024) stderr += chunk;
    });
    const exited = new Promise<number | null>((resolve) => {
      child.on('error', (error) => {
        failure ??= spawnFailure(tools.ffmpeg, error);
        resolve(null);
      });
      child.on('close', (code) => resolve(code));
    });
    const kill = (why?: Error): void => {
      if (why) failure ??= why;
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    };
    const onAbort = (): void => kill(cancelledError());
    signal?.addEventListener('abort', onAbort, { once: true });

    const chunks = child.stdout[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
    let data = new Uint8Array(frameBytes);
    let filled = 0;
    let index = 0;
    try {
      for (;;) {
        const started = Date.now();
        let timer: NodeJS.Timeout | undefined;
        const timedOut = new Promise<'timeout'>((resolve) => {
          timer = setTimeout(() => resolve('timeout'), Math.max(0, budgetMs));
        });
        const next = await Promise.race([chunks.next(), timedOut]).finally(() =>
          clearTimeout(timer),
        );
        budgetMs -= Date.now() - started;
        if (next === 'timeout') {
          kill(timeoutError('ffmpeg', limits.timeoutMs));
          break;
        }
        if (failure) break;
        if (next.done) break;
        // Copy each chunk straight into the frame being filled: linear in the bytes, whatever
        // the frame size. A fresh buffer per frame, as the consumer may keep frames (previews).
        let chunk: Buffer = next.value;
        while (chunk.length > 0) {
          const take = Math.min(chunk.length, frameBytes - filled);
          data.set(chunk.subarray(0, take), filled);
          filled += take;
          chunk = chunk.subarray(take);
          if (filled < frameBytes) break;
          if (index >= allowed) {
            kill();
            throw tooManyFrames(limits, sampleFps);
          }
          const frame: RawFrame = {
            index,
            timeS: info.kind === 'video' ? (seek ? (startS ?? 0) : 0) + index / sampleFps : 0,
            width,
            height,
            data,
          };
          index += 1;
          data = new Uint8Array(frameBytes);
          filled = 0;
          yield frame;
          if (failure) break;
        }
        if (failure) break;
      }
      // Output still buffered in the pipe holds 'close' back: drop it when we are not reading on.
      if (failure) child.stdout.destroy();
      const code = await exited;
      if (failure) throw failure;
      if (fifo && code !== 0 && index === 0 && isFifoMissing(stderr)) return 'fifo-missing';
      if (isProtocolRefusal(stderr)) {
        throw new UnsafeMediaError('The file tries to open other files or URLs; it was refused.', {
          cause: new Error(stderrTail(stderr)),
        });
      }
      // The JPEG decoder fills in a cut-off picture (grey) and still exits 0: refuse it.
      if (code !== 0 || (info.format === 'jpeg' && /overread|EOI missing|truncat/i.test(stderr))) {
        throw new CorruptMediaError('The file is damaged and could not be decoded.', {
          cause: new Error(stderrTail(stderr)),
        });
      }
      if (index === 0) {
        throw new CorruptMediaError('No picture could be decoded from the file.', {
          cause: new Error(stderrTail(stderr)),
        });
      }
    } finally {
      signal?.removeEventListener('abort', onAbort);
      // Consumer stopped early, or we are failing: never leave ffmpeg running.
      kill();
      child.stdout.destroy();
    }
  }
}

/** Most sampled frames a video may yield: its limits, plus slack for rounding at the ends. */
function maxSampledFrames(limits: MediaLimits, sampleFps: number): number {
  const byDuration = Math.ceil((limits.maxDurationS + 1) * sampleFps);
  return Math.min(limits.maxFrames, byDuration);
}

function tooManyFrames(limits: MediaLimits, sampleFps: number): MediaLimitError {
  if (Math.ceil((limits.maxDurationS + 1) * sampleFps) <= limits.maxFrames) {
    return new MediaLimitError(
      `The video runs longer than its header says; the limit is ${limits.maxDurationS} s.`,
      'duration',
    );
  }
  return new MediaLimitError(
    `The video has more than ${limits.maxFrames} frames; the limit is ${limits.maxFrames}.`,
    'frames',
  );
}

function checkSize(width: number, height: number, limits: MediaLimits): void {
  const ok = (n: number, max: number): boolean => Number.isInteger(n) && n > 0 && n <= max;
  if (!ok(width, limits.maxWidth) || !ok(height, limits.maxHeight)) {
    throw new RangeError(
      `Output frame size must be whole pixels within the limits: ${width}x${height}`,
    );
  }
}

/** A picture decoded at `width` x `height` (the detector's input size). */
export async function readPicture(
  file: string,
  info: MediaInfo,
  options: Omit<ReadFramesOptions, 'sampleFps'>,
): Promise<RawFrame> {
  if (info.kind !== 'image') throw new RangeError(`readPicture reads pictures, not ${info.kind}s`);
  // Read to the end, not just the first frame: readFrames checks ffmpeg's exit and a cut-off
  // JPEG only once the stream is over.
  let picture: RawFrame | undefined;
  for await (const frame of readFrames(file, info, { ...options, sampleFps: 1 })) picture = frame;
  // readFrames refuses a file that yields no picture; this is not reached.
  if (!picture) throw new CorruptMediaError('No picture could be decoded from the file.');
  return picture;
}

/**
 * One frame at `width` x `height`: a picture itself, or the video frame at `timeS` (a single
 * seek and decode, for a preview sharper than the detector's frame).
 */
export async function readFrameAt(
  file: string,
  info: MediaInfo,
  timeS: number,
  options: Omit<ReadFramesOptions, 'sampleFps' | 'startS'>,
): Promise<RawFrame> {
  if (info.kind === 'image') return readPicture(file, info, options);
  let found: RawFrame | undefined;
  for await (const frame of readFrames(file, info, { ...options, sampleFps: 1, startS: timeS })) {
    found = frame;
  }
  if (!found) throw new CorruptMediaError('No picture could be decoded from the file.');
  return found;
}

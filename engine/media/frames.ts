/**
 * Decodes a probed file into RGB24 frames at the detector's input size. ffmpeg samples the video
 * (`fps=` filter), scales, and streams raw frames over its stdout pipe; the generator pulls one
 * frame at a time, so a slow consumer pauses the pipe (and ffmpeg with it) and memory stays at
 * about one frame whatever the length. No frame ever touches the disk.
 */
import { spawn } from 'node:child_process';
import type { Readable } from 'node:stream';
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
import type { MediaTools } from './tools.ts';

export interface ReadFramesOptions {
  tools: MediaTools;
  limits: MediaLimits;
  /** Analysed frames per second of video (ignored for pictures). */
  sampleFps: number;
  /** Output frame size (the detector's input size). */
  width: number;
  height: number;
  signal?: AbortSignal;
  /**
   * Also every `every`-th sampled frame of a video at `width` x `height` (larger), from the same
   * decode: a second ffmpeg output on a second pipe, for a classifier that crops from more pixels
   * than the detector sees. A frame whose larger copy does not come carries none.
   */
  detail?: { every: number; width: number; height: number };
}

/** A sampled frame, with its larger copy where `ReadFramesOptions.detail` asked for one. */
export interface SampledFrame extends RawFrame {
  detail?: RawFrame;
}

export async function* readFrames(
  file: string,
  info: MediaInfo,
  options: ReadFramesOptions,
): AsyncGenerator<SampledFrame> {
  const { tools, limits, sampleFps, width, height, signal } = options;
  checkSize(width, height, limits);
  const detail = info.kind === 'video' ? options.detail : undefined;
  if (detail) {
    checkSize(detail.width, detail.height, limits);
    if (!(Number.isInteger(detail.every) && detail.every >= 1)) {
      throw new RangeError(`detail.every must be a whole number of frames, got ${detail.every}`);
    }
  }
  if (info.kind === 'video' && !(Number.isFinite(sampleFps) && sampleFps > 0 && sampleFps <= 120)) {
    throw new RangeError(`sampleFps must be between 0 and 120, got ${sampleFps}`);
  }
  if (signal?.aborted) throw cancelledError();

  const frameBytes = width * height * 3;
  const filters =
    info.kind === 'video'
      ? `fps=${sampleFps},scale=${width}:${height}:flags=bilinear`
      : `scale=${width}:${height}:flags=bilinear`;
  // One frame more than allowed, so that "too many" is seen rather than silently cut off.
  const maxOut = info.kind === 'video' ? maxSampledFrames(limits, sampleFps) + 1 : 1;
  const output = ['-pix_fmt', 'rgb24', '-f', 'rawvideo'];
  const args = detail
    ? [
        '-nostdin',
        ...inputArgs(file, info.format),
        // One decode, two sizes: the larger copy of every `every`-th sampled frame goes to fd 3,
        // as it comes (passthrough: a rawvideo output would otherwise fill the gaps with copies).
        '-filter_complex',
        `[0:v:0]fps=${sampleFps},split=2[a][b];[a]scale=${width}:${height}:flags=bilinear[o1];` +
          `[b]select='not(mod(n,${detail.every}))',scale=${detail.width}:${detail.height}:flags=bilinear[o2]`,
        '-map', '[o1]', '-frames:v', String(maxOut), ...output, 'pipe:1',
        '-map', '[o2]', '-fps_mode', 'passthrough', ...output, 'pipe:3',
      ]
    : [
        '-nostdin',
        ...inputArgs(file, info.format),
        '-map', '0:v:0', '-an', '-sn', '-dn',
        '-vf', filters,
        '-frames:v', String(maxOut),
        ...output,
        'pipe:1',
      ]; // prettier-ignore

  const child = spawn(tools.ffmpeg, args, {
    stdio: ['ignore', 'pipe', 'pipe', detail ? 'pipe' : 'ignore'],
  });
  const stdout = child.stdout!;
  const details = detail ? new DetailFrames(child.stdio[3] as Readable, detail) : undefined;
  let failure: Error | undefined;
  let stderr = '';
  child.stderr!.setEncoding('utf8');
  child.stderr!.on('data', (chunk: string) => {
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

  // The time limit counts only the time spent waiting on ffmpeg, not the consumer's time.
  let budgetMs = limits.timeoutMs;
  const chunks = stdout[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  let data = new Uint8Array(frameBytes);
  let filled = 0;
  const allowed = info.kind === 'video' ? maxOut - 1 : 1;
  let index = 0;
  const pending: SampledFrame[] = [];
  try {
    for (;;) {
      const started = Date.now();
      let timer: NodeJS.Timeout | undefined;
      const timedOut = new Promise<'timeout'>((resolve) => {
        timer = setTimeout(() => resolve('timeout'), Math.max(0, budgetMs));
      });
      const next = await Promise.race([chunks.next(), timedOut]).finally(() => clearTimeout(timer));
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
        const frame: SampledFrame = {
          index,
          timeS: info.kind === 'video' ? index / sampleFps : 0,
          width,
          height,
          data,
        };
        index += 1;
        data = new Uint8Array(frameBytes);
        filled = 0;
        // A frame waits (a few frames at most) for its larger copy, which ffmpeg writes only
        // once it has written some of the frames after it.
        pending.push(frame);
        while (pending.length > 0 && (!details || details.settled(pending[0]!, pending.length))) {
          yield details ? details.attach(pending.shift()!) : pending.shift()!;
          if (failure) break;
        }
        if (failure) break;
      }
      if (failure) break;
    }
    // The frames' stream is over: the last copies follow it.
    while (!failure && pending.length > 0) {
      const frame = pending.shift()!;
      if (details) {
        const waited = Date.now();
        await details.arrival(frame, budgetMs);
        budgetMs -= Date.now() - waited;
      }
      yield details ? details.attach(frame) : frame;
    }
    // Output still buffered in the pipe holds 'close' back: drop it when we are not reading on.
    if (failure) stdout.destroy();
    const code = await exited;
    if (failure) throw failure;
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
    stdout.destroy();
    details?.close();
  }
}

/**
 * The larger copies on ffmpeg's fd 3, read as they come (ffmpeg writes each right after its
 * sampled frame, so an unread pipe would stall the decode), kept until their frame asks.
 */
class DetailFrames {
  readonly every: number;
  private readonly size: { width: number; height: number };
  private readonly ready = new Map<number, Uint8Array>();
  private data: Uint8Array;
  private filled = 0;
  private count = 0;
  private ended = false;
  private wake: (() => void) | undefined;
  /** Frames that may wait for a copy before the first goes without (ffmpeg writes about `every` ahead). */
  private readonly maxWaiting: number;

  constructor(
    private readonly stream: Readable,
    detail: { every: number; width: number; height: number },
  ) {
    this.every = detail.every;
    this.maxWaiting = 2 * detail.every + 2;
    this.size = { width: detail.width, height: detail.height };
    this.data = new Uint8Array(detail.width * detail.height * 3);
    stream.on('data', (chunk: Buffer) => this.receive(chunk));
    const end = (): void => {
      this.ended = true;
      this.wake?.();
    };
    stream.on('end', end);
    stream.on('close', end);
    // A broken second pipe costs the larger copies, never the analysis.
    stream.on('error', end);
  }

  /** Whether `frame` can go: it wants no copy, its copy has come or never will, or too many wait. */
  settled(frame: RawFrame, waiting: number): boolean {
    if (frame.index % this.every !== 0) return true;
    return this.ready.has(frame.index / this.every) || this.ended || waiting > this.maxWaiting;
  }

  /** Waits, at most `budgetMs`, for `frame`'s copy to come or the pipe to end. */
  async arrival(frame: RawFrame, budgetMs: number): Promise<void> {
    const n = frame.index / this.every;
    const deadline = Date.now() + Math.max(0, budgetMs);
    while (!this.settled(frame, 0) && this.count <= n && Date.now() < deadline) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.max(0, deadline - Date.now()));
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.wake = undefined;
    }
  }

  /** `frame` with its copy, when it came; copies of earlier frames are dropped. */
  attach(frame: SampledFrame): SampledFrame {
    if (frame.index % this.every !== 0) return frame;
    const n = frame.index / this.every;
    const data = this.ready.get(n);
    for (const k of this.ready.keys()) if (k <= n) this.ready.delete(k);
    if (data) frame.detail = { index: frame.index, timeS: frame.timeS, ...this.size, data };
    return frame;
  }

  close(): void {
    this.ready.clear();
    this.stream.destroy();
  }

  private receive(chunk: Buffer): void {
    const bytes = this.data.length;
    while (chunk.length > 0) {
      const take = Math.min(chunk.length, bytes - this.filled);
      this.data.set(chunk.subarray(0, take), this.filled);
      this.filled += take;
      chunk = chunk.subarray(take);
      if (this.filled < bytes) break;
      this.ready.set(this.count++, this.data);
      this.data = new Uint8Array(bytes);
      this.filled = 0;
      this.wake?.();
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

/**
 * A picture decoded once more, at another size: a photo's detail frame for a subtype classifier
 * that crops from more pixels than the detector sees (`Detector.detailSizeFor`).
 */
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

/**
 * Runs ffmpeg / ffprobe on a file we treat as hostile: the demuxer we verified is named, only
 * the `file` protocol is allowed, nothing is read from stdin, and the process is killed on a
 * timeout or when the caller aborts. Internal to `engine/media`.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { AnalysisCancelledError, MediaTimeoutError, ToolMissingError } from '../errors.ts';
import type { MediaInfo } from '../types.ts';

export type MediaFormat = MediaInfo['format'];

/** The ffmpeg demuxer for each verified format; never let ffmpeg guess. */
const DEMUXERS: Record<MediaFormat, string[]> = {
  // Drefs (references to other files) are refused by the sniffer; keep them off here as well.
  mp4: ['-f', 'mov', '-enable_drefs', '0'],
  avi: ['-f', 'avi'],
  png: ['-f', 'png_pipe'],
  jpeg: ['-f', 'jpeg_pipe'],
};

/** Global options first, then the input: `... -protocol_whitelist file -f <demuxer> -i file:<abs>`. */
export function inputArgs(file: string, format: MediaFormat): string[] {
  return [
    '-hide_banner',
    '-loglevel',
    'error',
    '-protocol_whitelist',
    'file',
    ...DEMUXERS[format],
    '-i',
    // The `file:` prefix stops a name like "http:x" or "-y" from being read as anything else.
    `file:${path.resolve(file)}`,
  ];
}

/** True when ffmpeg said the file tried to open another file or URL. */
export function isProtocolRefusal(stderr: string): boolean {
  return /not on whitelist|not in whitelist|on blacklist|not allowed to|Invalid protocol/i.test(
    stderr,
  );
}

/** Last few lines of a tool's stderr, for `cause` (logs), never for the user-facing message. */
export function stderrTail(stderr: string, lines = 6): string {
  return stderr.trim().split('\n').slice(-lines).join('\n');
}

export function cancelledError(): AnalysisCancelledError {
  return new AnalysisCancelledError('The analysis was cancelled.');
}

export function timeoutError(tool: string, ms: number): MediaTimeoutError {
  return new MediaTimeoutError(
    `Reading the file took longer than ${Math.round(ms / 1000)} s and was stopped (${tool}).`,
  );
}

export function spawnFailure(bin: string, error: unknown): ToolMissingError {
  return new ToolMissingError(`Could not start ${path.basename(bin)} (${bin}).`, { cause: error });
}

export interface ToolRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs a tool to completion, collecting at most `maxStdoutBytes` of stdout (more is a sign of a
 * hostile file: the run is killed and `stdoutOverflow` reported as a thrown error by the caller).
 */
export function runTool(
  bin: string,
  args: string[],
  options: { timeoutMs: number; signal?: AbortSignal; maxStdoutBytes: number },
): Promise<ToolRun & { stdoutOverflow: boolean }> {
  const { signal } = options;
  if (signal?.aborted) return Promise.reject(cancelledError());
  return new Promise((resolve, reject) => {
    // stdin is closed for both tools (ffmpeg also gets `-nostdin` from its callers).
    const child = spawn(bin, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    let outBytes = 0;
    let stdoutOverflow = false;
    let stderr = '';
    let failure: Error | undefined;
    const kill = (why: Error): void => {
      failure ??= why;
      child.kill('SIGKILL');
    };
    const timer = setTimeout(
      () => kill(timeoutError(path.basename(bin), options.timeoutMs)),
      options.timeoutMs,
    );
    const onAbort = (): void => kill(cancelledError());
    signal?.addEventListener('abort', onAbort, { once: true });

    child.stdout.on('data', (chunk: Buffer) => {
      outBytes += chunk.length;
      if (outBytes > options.maxStdoutBytes) {
        stdoutOverflow = true;
        child.kill('SIGKILL');
        return;
      }
      out.push(chunk);
    });
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      if (stderr.length < 64 * 1024) stderr += chunk;
    });
    child.on('error', (error) => {
      failure ??= spawnFailure(bin, error);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      if (failure) reject(failure);
      else resolve({ code, stdout: Buffer.concat(out).toString('utf8'), stderr, stdoutOverflow });
    });
  });
}

/** A tiny structured logger (one JSON line per event); silent in tests unless asked. */
import fs from 'node:fs';

export interface Logger {
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
}

/** Flush the info buffer once it holds this much, without waiting for the next turn. */
const FLUSH_BYTES = 64 * 1024;

/**
 * Info lines (one per API request) are batched and written once per event-loop turn: stdout on
 * a pipe or file is a synchronous write in Node, and one write(2) per request cost more than
 * the cheap routes themselves under load. Warnings and errors go out at once, and whatever is
 * buffered is written before the process exits.
 */
export function createLogger(opts: { silent?: boolean } = {}): Logger {
  let pending: string[] = [];
  let pendingBytes = 0;
  let scheduled = false;
  const flush = (): void => {
    scheduled = false;
    if (pending.length === 0) return;
    const text = pending.join('');
    pending = [];
    pendingBytes = 0;
    process.stdout.write(text);
  };
  if (!opts.silent) {
    process.once('exit', () => {
      if (pending.length === 0) return;
      try {
        fs.writeSync(1, pending.join(''));
      } catch {
        // stdout already closed: nothing left to tell
      }
    });
  }
  const write = (level: string, msg: string, fields?: Record<string, unknown>): void => {
    if (opts.silent) return;
    const line = JSON.stringify({ time: new Date().toISOString(), level, msg, ...fields }) + '\n';
    if (level === 'error' || level === 'warn') {
      process.stderr.write(line);
      return;
    }
    pending.push(line);
    pendingBytes += line.length;
    if (pendingBytes >= FLUSH_BYTES) flush();
    else if (!scheduled) {
      scheduled = true;
      setImmediate(flush);
    }
  };
  return {
    info: (m, f) => write('info', m, f),
    warn: (m, f) => write('warn', m, f),
    error: (m, f) => write('error', m, f),
  };
}

export const silentLogger: Logger = createLogger({ silent: true });

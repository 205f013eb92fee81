/**
 * The server's logger: pino, writing one JSON line per event (`time`, `level`, `msg`, fields).
 * Info lines (one per API request) go to stdout through an asynchronous stream, since a
 * synchronous write(2) per request cost more than the cheap routes themselves under load; it
 * holds no minimum length, so a line such as "listening" reaches a supervisor that waits for it.
 * Warnings and errors go to stderr at once. The small `Logger` interface keeps pino behind this
 * one module.
 */
import pino from 'pino';

export interface Logger {
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
}

export function createLogger(opts: { silent?: boolean } = {}): Logger {
  if (opts.silent) return { info: () => {}, warn: () => {}, error: () => {} };
  const stdout = pino.destination({ dest: 1, sync: false });
  const stderr = pino.destination({ dest: 2, sync: true });
  process.once('exit', () => {
    try {
      stdout.flushSync();
    } catch {
      // stdout already closed: nothing left to tell
    }
  });
  const log = pino(
    {
      base: null,
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
    },
    pino.multistream(
      [
        { level: 'info', stream: stdout },
        { level: 'warn', stream: stderr },
      ],
      { dedupe: true },
    ),
  );
  return {
    info: (m, f) => log.info(f ?? {}, m),
    warn: (m, f) => log.warn(f ?? {}, m),
    error: (m, f) => log.error(f ?? {}, m),
  };
}

export const silentLogger: Logger = createLogger({ silent: true });

/**
 * A logger and a mailer that keep what they are given, for tests that read what the server
 * logged or sent.
 */
import type { Logger } from '../../server/logger.ts';
import type { MailMessage, Mailer } from '../../server/mailer.ts';

export interface CapturingLogger extends Logger {
  lines: string[];
}

/** Keeps every log line (as the JSON the real logger would write). */
export function capturingLogger(): CapturingLogger {
  const lines: string[] = [];
  const write = (level: string) => (msg: string, fields?: Record<string, unknown>) => {
    lines.push(JSON.stringify({ level, msg, ...fields }));
  };
  return { lines, info: write('info'), warn: write('warn'), error: write('error') };
}

export interface CapturingMailer extends Mailer {
  sent: MailMessage[];
}

export function capturingMailer(): CapturingMailer {
  const sent: MailMessage[] = [];
  return {
    sent,
    send: (m) => {
      sent.push(m);
      return Promise.resolve();
    },
    close: () => {},
  };
}

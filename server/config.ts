/**
 * The server's configuration, read from the environment ONCE at start. Every bad key is reported
 * together in one ConfigError so an operator fixes them all in one go; the result is frozen so
 * nothing downstream can read or change the environment behind the config's back.
 */
import path from 'node:path';

export interface Config {
  readonly port: number;
  /**
   * Interface to listen on: loopback by default, so a fresh `npm start` is not reachable from
   * the network; a deployment behind a reverse proxy or in a container sets HOST=0.0.0.0.
   */
  readonly host: string;
  readonly dataDir: string;
  /** postgres://... when set; otherwise SQLite at `sqliteFile`. */
  readonly databaseUrl: string | null;
  readonly sqliteFile: string;
  /**
   * Extra read-only SQLite connections for the hot lists (files list, admin search): SQLite runs
   * one statement at a time per connection, so with one connection every read queued behind
   * the others on a single core. Ignored on PostgreSQL, whose pool already reads in parallel.
   */
  readonly sqliteReadConnections: number;
  readonly publicUrl: string;
  /** Origin of PUBLIC_URL (scheme://host[:port]), used by the CSRF Origin check. */
  readonly publicOrigin: string;
  /** Cookies get `Secure` when PUBLIC_URL is https. */
  readonly secureCookies: boolean;
  readonly smtpUrl: string | null;
  readonly mailFrom: string;
  readonly sessionIdleDays: number;
  readonly mediaRetentionHours: number;
  readonly contactEmail: string;
  readonly researchArticleUrl: string;
  readonly introVideoUrl: string;
  readonly adminEmail: string | null;
  readonly adminPassword: string | null;
  /** Model card or ONNX path; null = the engine's default model. */
  readonly model: string | null;
  readonly fps: number;
  readonly workerConcurrency: number;
  readonly jobLeaseSeconds: number;
  readonly jobMaxAttempts: number;
  readonly maxVideoSeconds: number;
  /** Longest one ffprobe run or one decode may wait on the tool before it is killed (seconds). */
  readonly mediaTimeoutSeconds: number;
  /** Run the analysis engine in a worker thread, so inference never holds the HTTP requests. */
  readonly analysisThread: boolean;
  /** Trust X-Forwarded-* (client IP for rate limits) when behind a reverse proxy. */
  readonly trustProxy: boolean;
  /**
   * Sliding-window rate limits for sign-in and forgot-password, kept in the database so every
   * process counts together: per e-mail from one IP (slowed from half of it, refused past it),
   * per IP (refused). Over all IPs an e-mail's sign-ins are only slowed, past
   * `rateLimitSlowAfterPerEmailAllIps`, so nobody else can lock its owner out; its
   * forgot-password requests are refused past `rateLimitMaxPerEmailAllIps` (the owner's inbox).
   */
  readonly rateLimitWindowSeconds: number;
  readonly rateLimitMaxPerEmail: number;
  readonly rateLimitMaxPerIp: number;
  readonly rateLimitMaxPerEmailAllIps: number;
  readonly rateLimitSlowAfterPerEmailAllIps: number;
  /** Registrations per IP per window (refused past it). */
  readonly registerRateLimitMaxPerIp: number;
  /** Accounts created per window from every IP together, past which each one waits longer. */
  readonly registerSlowAfterAllIps: number;
  /**
   * Frame stills (ffmpeg + detector, about 0.8 s each) one user may have made per window
   * (server/corrections/stills.ts); opening a still made already is free.
   */
  readonly stillsRateLimitMax: number;
  /**
   * Multiplies every plan's daily upload count and storage cap (server/files/quotas.ts): an
   * installation with more room raises them without changing the plan table.
   */
  readonly uploadQuotaScale: number;
  /** JSON request bodies above this size are refused with 413. */
  readonly jsonBodyLimitBytes: number;
}

export class ConfigError extends Error {
  constructor(readonly problems: Record<string, string>) {
    super(
      'Invalid configuration: ' +
        Object.entries(problems)
          .map(([key, problem]) => `${key} ${problem}`)
          .join('; '),
    );
    this.name = 'ConfigError';
  }
}

type Env = Record<string, string | undefined>;

export function loadConfig(env: Env = process.env): Config {
  const problems: Record<string, string> = {};
  const str = (key: string): string | null => {
    const v = env[key];
    return v === undefined || v.trim() === '' ? null : v.trim();
  };
  const int = (
    key: string,
    fallback: number,
    min: number,
    max = Number.MAX_SAFE_INTEGER,
  ): number => {
    const raw = str(key);
    if (raw === null) return fallback;
    if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
      problems[key] = `must be a whole number between ${min} and ${max} (got "${raw}")`;
      return fallback;
    }
    return Number(raw);
  };
  const num = (key: string, fallback: number, min: number): number => {
    const raw = str(key);
    if (raw === null) return fallback;
    const n = Number(raw);
    if (!Number.isFinite(n) || n < min) {
      problems[key] = `must be a number >= ${min} (got "${raw}")`;
      return fallback;
    }
    return n;
  };
  const bool = (key: string, fallback: boolean): boolean => {
    const raw = str(key)?.toLowerCase();
    if (raw === undefined) return fallback;
    if (['1', 'true', 'yes', 'on'].includes(raw)) return true;
    if (['0', 'false', 'no', 'off'].includes(raw)) return false;
    problems[key] = `must be true or false (got "${raw}")`;
    return fallback;
  };
  const url = (key: string, fallback: string, protocols: string[]): string => {
    const raw = str(key) ?? fallback;
    try {
      const u = new URL(raw);
      if (!protocols.includes(u.protocol)) throw new Error('protocol');
    } catch {
      problems[key] = `must be a ${protocols.join(' or ')} URL (got "${raw}")`;
    }
    return raw;
  };
  const email = (key: string, fallback: string | null): string | null => {
    const raw = str(key) ?? fallback;
    if (raw !== null && !EMAIL_RE.test(raw))
      problems[key] = `must be an e-mail address (got "${raw}")`;
    return raw;
  };

  const port = int('PORT', 8000, 0, 65535);
  const host = str('HOST') ?? '127.0.0.1';
  const dataDir = path.resolve(str('DATA_DIR') ?? './data');
  const databaseUrl = str('DATABASE_URL');
  if (databaseUrl !== null) url('DATABASE_URL', databaseUrl, ['postgres:', 'postgresql:']);
  const publicUrl = url('PUBLIC_URL', `http://localhost:${port}`, ['http:', 'https:']).replace(
    /\/+$/,
    '',
  );
  const smtpUrl = str('SMTP_URL');
  if (smtpUrl !== null) url('SMTP_URL', smtpUrl, ['smtp:', 'smtps:']);
  const mailFrom = str('MAIL_FROM') ?? 'HiveSight <no-reply@hivesight.example>';
  const adminEmail = email('ADMIN_EMAIL', null);
  const adminPassword = str('ADMIN_PASSWORD');
  if (adminEmail !== null && (adminPassword === null || adminPassword.length < 8)) {
    problems.ADMIN_PASSWORD = 'must be set (at least 8 characters) when ADMIN_EMAIL is set';
  }
  if (adminEmail === null && adminPassword !== null)
    problems.ADMIN_EMAIL = 'must be set when ADMIN_PASSWORD is set';

  const config: Config = {
    port,
    host,
    dataDir,
    databaseUrl,
    sqliteFile: path.join(dataDir, 'hivesight.sqlite'),
    sqliteReadConnections: int('SQLITE_READ_CONNECTIONS', 3, 1, 64),
    publicUrl,
    publicOrigin: safeOrigin(publicUrl),
    secureCookies: publicUrl.startsWith('https:'),
    smtpUrl,
    mailFrom,
    sessionIdleDays: num('SESSION_IDLE_DAYS', 7, 0.0001),
    mediaRetentionHours: num('MEDIA_RETENTION_HOURS', 24, 0),
    contactEmail:
      email('CONTACT_EMAIL', 'contact@hivesight.example') ?? 'contact@hivesight.example',
    researchArticleUrl: url('RESEARCH_ARTICLE_URL', 'https://doi.org/10.3390/agriculture15101019', [
      'http:',
      'https:',
    ]),
    introVideoUrl: str('INTRO_VIDEO_URL') ?? '/intro.mp4', // bundled clip in the built console
    adminEmail: adminEmail?.toLowerCase() ?? null,
    adminPassword,
    model: str('HIVESIGHT_MODEL'),
    fps: num('HIVESIGHT_FPS', 5, 0.01),
    workerConcurrency: int('WORKER_CONCURRENCY', 1, 0, 64),
    jobLeaseSeconds: int('JOB_LEASE_SECONDS', 300, 1),
    jobMaxAttempts: int('JOB_MAX_ATTEMPTS', 3, 1, 100),
    maxVideoSeconds: int('MAX_VIDEO_SECONDS', 600, 1),
    mediaTimeoutSeconds: int('MEDIA_TIMEOUT_SECONDS', 120, 1),
    analysisThread: bool('ANALYSIS_THREAD', true),
    trustProxy: bool('TRUST_PROXY', false),
    rateLimitWindowSeconds: int('RATE_LIMIT_WINDOW_SECONDS', 900, 1),
    rateLimitMaxPerEmail: int('RATE_LIMIT_MAX_PER_EMAIL', 10, 1),
    rateLimitMaxPerIp: int('RATE_LIMIT_MAX_PER_IP', 100, 1),
    rateLimitMaxPerEmailAllIps: int('RATE_LIMIT_MAX_PER_EMAIL_ALL_IPS', 100, 1),
    rateLimitSlowAfterPerEmailAllIps: int('RATE_LIMIT_SLOW_AFTER_PER_EMAIL_ALL_IPS', 20, 1),
    registerRateLimitMaxPerIp: int('REGISTER_RATE_LIMIT_MAX_PER_IP', 20, 1),
    stillsRateLimitMax: int('STILLS_RATE_LIMIT_MAX', 120, 1),
    registerSlowAfterAllIps: int('REGISTER_RATE_LIMIT_SLOW_AFTER_ALL_IPS', 30, 1),
    uploadQuotaScale: num('UPLOAD_QUOTA_SCALE', 1, 0.001),
    jsonBodyLimitBytes: int('JSON_BODY_LIMIT_BYTES', 100 * 1024, 1024),
  };
  if (Object.keys(problems).length > 0) throw new ConfigError(problems);
  return Object.freeze(config);
}

export const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function safeOrigin(u: string): string {
  try {
    return new URL(u).origin;
  } catch {
    return u;
  }
}

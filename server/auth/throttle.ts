/**
 * Which keys a sign-in, forgot-password or registration attempt counts against (issues 44, 54),
 * and what happens past them. Keys only the attacker fills (their address; their address with
 * one e-mail) end in a 429. Keys anyone can fill for someone else (one e-mail over every address;
 * every registration) only make each further attempt wait, up to MAX_SLOWDOWN_MS, so a stranger
 * can slow the owner down but never lock them out. Every refusal and wait is logged with its
 * key's kind, the address and the e-mail, never the password.
 */
import type { Config } from '../config.ts';
import type { AppContext } from '../context.ts';
import { RateLimited } from '../errors.ts';
import type { LimitRule } from './rate-limit.ts';
import { ruleSlowdownMs, waitText } from './rate-limit.ts';

export const PAIR_KEY = 'signin:email-ip:';
const EMAIL_KEY = 'signin:email:';

/** An unknown device's sign-in; `address` is the normalised e-mail ('' when none was given). */
export function signInRules(config: Config, ip: string, address: string): LimitRule[] {
  const rules: LimitRule[] = [{ key: `signin:ip:${ip}`, max: config.rateLimitMaxPerIp }];
  if (address) {
    rules.push(
      // Half the allowance goes at full speed: an owner's typos are not slowed.
      {
        key: `${PAIR_KEY}${address}|${ip}`,
        max: config.rateLimitMaxPerEmail,
        slowAfter: Math.ceil(config.rateLimitMaxPerEmail / 2),
      },
      {
        key: `${EMAIL_KEY}${address}`,
        max: Number.POSITIVE_INFINITY,
        slowAfter: config.rateLimitSlowAfterPerEmailAllIps,
      },
    );
  }
  return rules;
}

/**
 * The account's failed sign-ins over every address (this attempt not included) once they are
 * past its slow-down, i.e. the account is under attack; 0 otherwise.
 */
export function failuresUnderAttack(
  config: Config,
  rules: readonly LimitRule[],
  counts: readonly number[],
): number {
  const i = rules.findIndex((r) => r.key.startsWith(EMAIL_KEY));
  const count = i < 0 ? 0 : (counts[i] ?? 0);
  return count > config.rateLimitSlowAfterPerEmailAllIps ? count - 1 : 0;
}

/** A known device's sign-in counts against that device alone (see known-devices.ts). */
export function deviceRule(deviceId: string): LimitRule {
  return { key: `signin:device:${deviceId}`, max: Number.POSITIVE_INFINITY };
}

/** Whether a known device may still skip the other keys: it has not failed too often. */
export async function deviceTrusted(app: AppContext, deviceId: string): Promise<boolean> {
  return (await app.limiter.count(deviceRule(deviceId).key)) < app.config.rateLimitMaxPerEmail;
}

/**
 * Forgot-password requests are refused past every limit: the e-mail over every address too,
 * since each one sends the owner a message, and refusing them does not keep the owner out.
 */
export function forgotRules(config: Config, ip: string, address: string): LimitRule[] {
  const rules: LimitRule[] = [{ key: `forgot:ip:${ip}`, max: config.rateLimitMaxPerIp }];
  if (address) {
    rules.push(
      { key: `forgot:email-ip:${address}|${ip}`, max: config.rateLimitMaxPerEmail },
      { key: `forgot:email:${address}`, max: config.rateLimitMaxPerEmailAllIps },
    );
  }
  return rules;
}

export function registerIpRule(config: Config, ip: string): LimitRule {
  return { key: `register:ip:${ip}`, max: config.registerRateLimitMaxPerIp };
}

/** Every account created, from anywhere: a burst of them slows down, real users still get in. */
export function registerAllRule(config: Config): LimitRule {
  return {
    key: 'register:all',
    max: Number.POSITIVE_INFINITY,
    slowAfter: config.registerSlowAfterAllIps,
  };
}

export interface Attempt {
  /** For the log: 'sign-in', 'forgot-password', 'registration'. */
  action: string;
  /** For the 429's message: "Too many <what>". */
  what: string;
  ip: string;
  email?: string;
}

/** `signin:email` of `signin:email:a@b.c`: what kind of key, without whose. */
function keyKind(rule: LimitRule): string {
  return rule.key.split(':').slice(0, 2).join(':');
}

/**
 * Counts one attempt; throws RateLimited (429, Retry-After) past a refusing key, otherwise waits
 * what the slowing keys ask. Returns the hits (to forget on success) and each rule's count.
 */
export async function throttle(
  app: AppContext,
  rules: LimitRule[],
  attempt: Attempt,
): Promise<{ hitIds: number[]; counts: number[] }> {
  const who = { ip: attempt.ip, ...(attempt.email ? { email: attempt.email } : {}) };
  const result = await app.limiter.hit(rules);
  if (!result.allowed) {
    app.logger.warn(`${attempt.action} refused`, {
      key: keyKind(result.refusedBy),
      ...who,
      retry_after_s: result.retryAfterSeconds,
    });
    throw new RateLimited(
      `Too many ${attempt.what}. Please wait ${waitText(result.retryAfterSeconds)} and try again.`,
      result.retryAfterSeconds,
    );
  }
  if (result.delayMs > 0) {
    const waits = rules.map((rule, i) => ruleSlowdownMs(rule, result.counts[i] ?? 0));
    const slowest = waits.indexOf(result.delayMs);
    app.logger.warn(`${attempt.action} slowed`, {
      key: keyKind(rules[slowest]!),
      ...who,
      attempts: result.counts[slowest],
      delay_ms: result.delayMs,
    });
    await app.sleep(result.delayMs);
  }
  return { hitIds: result.hitIds, counts: result.counts };
}

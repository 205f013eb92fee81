/**
 * Known devices (issue 54). A browser that signs in to an account gets a cookie naming the account
 * and a random device id, signed with a key derived from the account's password hash. On that
 * browser, sign-ins to that account skip the limits a stranger can fill from elsewhere (per
 * e-mail over every address, per address), so the owner's usual device always gets in at once.
 *
 * Keying by the password hash means the server keeps no extra secret, a cookie cannot be made
 * without reading the database, and a password reset disowns every device. A device that fails
 * too often in a window loses the exemption (see `throttle.ts`), so a stolen cookie buys only a
 * few guesses more.
 */
import crypto from 'node:crypto';

export const DEVICE_COOKIE = 'hs_device';
/** Only the sign-in call needs it. */
const DEVICE_COOKIE_PATH = '/api/check-valid-user/';
const DEVICE_MAX_AGE_SECONDS = 365 * 86_400;
const DEVICE_ID_RE = /^[A-Za-z0-9_-]{22}$/;

interface Account {
  id: number;
  password_hash: string;
}

function signature(account: Account, deviceId: string): string {
  return crypto
    .createHmac('sha256', `hivesight-known-device|${account.password_hash}`)
    .update(`${account.id}|${deviceId}`)
    .digest('base64url');
}

/** The device id of a cookie this server gave this account (with its current password), or null. */
export function knownDeviceId(cookie: string | undefined, account: Account): string | null {
  const [userId, deviceId, sig, ...rest] = (cookie ?? '').split('.');
  if (rest.length > 0 || userId !== String(account.id) || !deviceId || !sig) return null;
  if (!DEVICE_ID_RE.test(deviceId)) return null;
  const want = Buffer.from(signature(account, deviceId));
  const got = Buffer.from(sig);
  return got.length === want.length && crypto.timingSafeEqual(got, want) ? deviceId : null;
}

export function newDeviceId(): string {
  return crypto.randomBytes(16).toString('base64url');
}

export function deviceCookie(account: Account, deviceId: string, secure: boolean): string {
  const parts = [
    `${DEVICE_COOKIE}=${account.id}.${deviceId}.${signature(account, deviceId)}`,
    `Path=${DEVICE_COOKIE_PATH}`,
    'HttpOnly',
    'SameSite=Lax',
    `Max-Age=${DEVICE_MAX_AGE_SECONDS}`,
  ];
  if (secure) parts.push('Secure');
  return parts.join('; ');
}

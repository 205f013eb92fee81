/** Random tokens (sessions, password resets): 32 random bytes to the client, sha256 hex stored. */
import crypto from 'node:crypto';

export function newToken(): { token: string; hash: string } {
  const token = crypto.randomBytes(32).toString('base64url');
  return { token, hash: hashToken(token) };
}

export function hashToken(token: string): string {
  return crypto.createHash('sha256').update(token).digest('hex');
}

// Forgot/reset password through a REAL local SMTP server (smtp-server), with an injected clock
// for expiry, on SQLite and PostgreSQL.
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../server/clock.ts';
import {
  DB_KINDS,
  dbAvailable,
  signIn,
  signUp,
  TEST_PASSWORD,
  uniqueEmail,
  useTestServer,
} from '../support/server.ts';

interface Received {
  to: string[];
  raw: string;
}

/** A local SMTP server that keeps every message it receives. */
async function startSmtp(): Promise<{ url: string; inbox: Received[]; close(): Promise<void> }> {
  const inbox: Received[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        inbox.push({
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    inbox,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const smtp = await startSmtp();
afterAll(() => smtp.close());

/** The reset token from the last message sent to `email` (quoted-printable soft breaks undone). */
function lastToken(email: string): string {
  const msg = [...smtp.inbox].reverse().find((m) => m.to.includes(email));
  if (!msg) throw new Error(`no mail to ${email}`);
  const body = msg.raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
  const m = /\/reset-password\?token=([A-Za-z0-9_%-]+)/.exec(body);
  if (!m?.[1]) throw new Error(`no reset link in:\n${body}`);
  return decodeURIComponent(m[1]);
}

describe.each(DB_KINDS)('password reset on %s', (kind) => {
  describe.skipIf(!dbAvailable(kind))('', () => {
    const clock = new ManualClock('2026-06-01T08:00:00Z');
    const t = useTestServer(kind, {
      clock,
      env: {
        SMTP_URL: smtp.url,
        PUBLIC_URL: 'https://hives.example.org',
        MAIL_FROM: 'HiveSight <no-reply@hives.example.org>',
      },
    });
    beforeAll(() => {
      // PUBLIC_URL is https here, so cookies are Secure; the test client still keeps them.
      expect(t.server.app.config.secureCookies).toBe(true);
    });
    beforeEach(() => clock.advance(60 * 60 * 1000));

    it('unknown or invalid e-mail answers INVALID_EMAIL_ADDRESS and sends nothing', async () => {
      const before = smtp.inbox.length;
      for (const email_address of ['nobody@example.com', 'not-an-email', '', undefined]) {
        const res = await t.client().post('/api/forgot-password', { email_address });
        expect(res.status).toBe(200);
        expect(res.json()).toEqual({ message: 'INVALID_EMAIL_ADDRESS' });
      }
      expect(smtp.inbox.length).toBe(before);
    });

    it('mails a single-use link that sets the new password and ends the other sessions', async () => {
      const email = await signUp(t.client(), { email: uniqueEmail() });
      const laptop = t.client();
      const phone = t.client();
      await signIn(laptop, email);
      await signIn(phone, email);
      expect((await laptop.get('/api/me')).status).toBe(200);

      const res = await t
        .client()
        .post('/api/forgot-password', { email_address: email.toUpperCase() });
      expect(res.json()).toEqual({ message: 'SUCCESS' });
      const msg = smtp.inbox.at(-1)!;
      expect(msg.to).toEqual([email]);
      expect(msg.raw.replace(/=\r?\n/g, '')).toMatch(
        /https:\/\/hives\.example\.org\/reset-password\?token=/,
      );
      const token = lastToken(email);
      expect(Buffer.from(token, 'base64url').length).toBe(32);
      // Stored hashed only.
      expect(
        await t.server.app.db('password_resets').where({ token_hash: token }).first(),
      ).toBeUndefined();

      const short = await t.client().post('/api/reset-password', { token, new_password: 'short' });
      expect(short.status).toBe(400);
      expect(short.json<{ message: string }>().message).toBe(
        'Password must be at least 8 characters',
      );

      // Guessable passwords are refused with the reason, and the link stays usable.
      for (const [weak, reason] of [
        ['password123', /too common/],
        ['        ', /only spaces/],
        [email.toUpperCase(), /email address/],
      ] as const) {
        const res = await t.client().post('/api/reset-password', { token, new_password: weak });
        expect(res.status, weak).toBe(400);
        expect(res.json<{ message: string }>().message).toMatch(reason);
      }

      const ok = await t
        .client()
        .post('/api/reset-password', { token, new_password: 'brand-new-pass' });
      expect(ok.status).toBe(200);
      expect(ok.json()).toEqual({ message: 'SUCCESS' });

      // Other sessions ended; old password refused; new one works.
      expect((await laptop.get('/api/me')).status).toBe(401);
      expect((await phone.get('/api/me')).status).toBe(401);
      expect(await signIn(t.client(), email, TEST_PASSWORD)).toBe('');
      expect(await signIn(t.client(), email, 'brand-new-pass')).toBe('USER');

      // Single use.
      const again = await t
        .client()
        .post('/api/reset-password', { token, new_password: 'another-pass-1' });
      expect(again.status).toBe(400);
      expect(again.json<{ message: string }>().message).toMatch(/invalid or has expired/);
      expect(await signIn(t.client(), email, 'another-pass-1')).toBe('');
    });

    it('refuses an expired token (after 1 hour) and unknown tokens', async () => {
      const email = await signUp(t.client(), { email: uniqueEmail() });
      await t.client().post('/api/forgot-password', { email_address: email });
      const token = lastToken(email);
      clock.advance(60 * 60 * 1000 + 1000);
      const res = await t
        .client()
        .post('/api/reset-password', { token, new_password: 'brand-new-pass' });
      expect(res.status).toBe(400);
      expect(await signIn(t.client(), email, TEST_PASSWORD)).toBe('USER');
      for (const bad of ['', 'x', 'A'.repeat(43)]) {
        const r = await t
          .client()
          .post('/api/reset-password', { token: bad, new_password: 'brand-new-pass' });
        expect(r.status).toBe(400);
      }
    });

    it('a token still works 59 minutes later; a newer reset invalidates the older token', async () => {
      const email = await signUp(t.client(), { email: uniqueEmail() });
      await t.client().post('/api/forgot-password', { email_address: email });
      const first = lastToken(email);
      await t.client().post('/api/forgot-password', { email_address: email });
      const second = lastToken(email);
      expect(second).not.toBe(first);
      clock.advance(59 * 60 * 1000);
      expect(
        (
          await t
            .client()
            .post('/api/reset-password', { token: second, new_password: 'second-pass-1' })
        ).status,
      ).toBe(200);
      expect(
        (
          await t
            .client()
            .post('/api/reset-password', { token: first, new_password: 'first-pass-11' })
        ).status,
      ).toBe(400);
      expect(await signIn(t.client(), email, 'second-pass-1')).toBe('USER');
    });

    it('sessions expire after SESSION_IDLE_DAYS without use', async () => {
      const c = t.client();
      const email = await signUp(c);
      await signIn(c, email);
      clock.advance(6 * 86_400_000);
      expect((await c.get('/api/me')).status).toBe(200); // use extends the session
      clock.advance(6 * 86_400_000);
      expect((await c.get('/api/me')).status).toBe(200);
      clock.advance(7 * 86_400_000 + 1000);
      expect((await c.get('/api/me')).status).toBe(401);
    });
  });
});

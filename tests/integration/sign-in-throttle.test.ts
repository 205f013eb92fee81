// Issue 54, items 1 and 10: a stranger guessing from many addresses slows an account's sign-ins
// but never locks its owner out; a burst of registrations slows without refusing anyone. Against
// a real server on SQLite and PostgreSQL; TRUST_PROXY lets one client speak from many addresses,
// and a RecordingSleep shows the waits the server chose without waiting them.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAX_SLOWDOWN_MS } from '../../server/auth/rate-limit.ts';
import { DEVICE_COOKIE } from '../../server/auth/known-devices.ts';
import { ManualClock } from '../../server/clock.ts';
import type { Logger } from '../../server/logger.ts';
import { RecordingSleep } from '../../server/sleep.ts';
import { createUser } from '../support/factories/index.ts';
import {
  DB_KINDS,
  dbAvailable,
  TEST_PASSWORD,
  uniqueEmail,
  useTestServer,
} from '../support/server.ts';
import type { TestClient, TestResponse } from '../support/server.ts';

const WINDOW_S = 900;

function capturingLogger(): Logger & { lines: Array<Record<string, unknown>> } {
  const lines: Array<Record<string, unknown>> = [];
  const write = (level: string) => (msg: string, fields?: Record<string, unknown>) => {
    lines.push({ level, msg, ...fields });
  };
  return { lines, info: write('info'), warn: write('warn'), error: write('error') };
}

function signInFrom(c: TestClient, ip: string, email: string, password: string) {
  return c.post(
    '/api/check-valid-user/',
    { email_address: email, password },
    { 'x-forwarded-for': ip },
  );
}

/** The waits the server asked for while `call` ran. */
async function waitsOf(
  sleep: RecordingSleep,
  call: () => Promise<TestResponse>,
): Promise<{ res: TestResponse; waits: number[] }> {
  const before = sleep.waits.length;
  const res = await call();
  return { res, waits: sleep.waits.slice(before) };
}

function attackMails(dataDir: string, to: string): string[] {
  const outbox = path.join(dataDir, 'outbox');
  if (!fs.existsSync(outbox)) return [];
  return fs
    .readdirSync(outbox)
    .map((f) => fs.readFileSync(path.join(outbox, f), 'utf8'))
    .filter((m) => m.includes(`To: ${to}`) && m.includes('Someone is trying to sign in'));
}

describe.each(DB_KINDS)('sign-in and registration throttling on %s', (kind) => {
  describe.skipIf(!dbAvailable(kind))('', () => {
    const clock = new ManualClock('2026-04-01T10:00:00Z');
    const sleep = new RecordingSleep();
    const logger = capturingLogger();
    // Default limits (10 per e-mail and address, slowed over every address after 20), but
    // registrations slow after 10 so the burst stays short.
    const t = useTestServer(kind, {
      clock,
      sleep: sleep.sleep,
      logger,
      env: { TRUST_PROXY: 'true', REGISTER_RATE_LIMIT_SLOW_AFTER_ALL_IPS: '10' },
    });
    const nextWindow = () => clock.advance((WINDOW_S + 1) * 1000);

    it('100 wrong passwords from 10 addresses slow the owner down but never lock them out', async () => {
      nextWindow();
      const owner = await createUser(t.server, { locations: [] });
      const device = t.client();
      expect((await signInFrom(device, '192.0.2.1', owner.email, owner.password)).text).toBe(
        'USER',
      );
      expect(device.cookies.get(DEVICE_COOKIE)).toMatch(new RegExp(`^${owner.id}\\.`));

      const attacker = t.client();
      const attackWaits: number[] = [];
      for (let a = 2; a <= 11; a += 1) {
        for (let i = 0; i < 10; i += 1) {
          const { res, waits } = await waitsOf(sleep, () =>
            signInFrom(attacker, `127.0.0.${a}`, owner.email, `wrong-guess-${a}-${i}`),
          );
          expect(res.status).toBe(200);
          expect(res.text).toBe('');
          attackWaits.push(...waits);
        }
      }
      // Past 20 attempts over every address each one waits, growing to the cap and no further.
      expect(attackWaits.length).toBeGreaterThanOrEqual(80);
      expect(Math.max(...attackWaits)).toBe(MAX_SLOWDOWN_MS);

      // The attacker's own address is refused for this account, even with the right password.
      const refused = await signInFrom(attacker, '127.0.0.2', owner.email, owner.password);
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);

      // The owner, from an address the attacker never used: in, after a wait of seconds at most.
      const fresh = await waitsOf(sleep, () =>
        signInFrom(t.client(), '198.51.100.7', owner.email, owner.password),
      );
      expect(fresh.res.status).toBe(200);
      expect(fresh.res.text).toBe('USER');
      expect(fresh.waits).toHaveLength(1);
      expect(fresh.waits[0]).toBeLessThanOrEqual(MAX_SLOWDOWN_MS);

      // The owner's known device: in at once, from its address or even from the attacker's.
      for (const ip of ['192.0.2.1', '127.0.0.3']) {
        const known = await waitsOf(sleep, () =>
          signInFrom(device, ip, owner.email, owner.password),
        );
        expect(known.res.text).toBe('USER');
        expect(known.waits).toEqual([]);
      }

      const warnings = logger.lines.filter((l) => l.level === 'warn' && l.email === owner.email);
      expect(warnings.some((l) => l.msg === 'sign-in slowed' && l.key === 'signin:email')).toBe(
        true,
      );
      expect(warnings.some((l) => l.msg === 'sign-in slowed' && l.key === 'signin:email-ip')).toBe(
        true,
      );
      expect(warnings.some((l) => l.msg === 'sign-in refused' && l.key === 'signin:email-ip')).toBe(
        true,
      );
      const logged = JSON.stringify(logger.lines);
      expect(logged).not.toContain('wrong-guess');
      expect(logged).not.toContain(owner.password);

      // Sent beside the answer, not before it: wait for it.
      await expect.poll(() => attackMails(t.server.dataDir, owner.email).length).toBe(1);
      const mails = attackMails(t.server.dataDir, owner.email);
      expect(mails[0]).toContain('Your account is not locked');
      expect(mails[0]).not.toContain('wrong-guess');
    });

    it('tells the owner once a day while the attack goes on', async () => {
      nextWindow();
      const owner = await createUser(t.server, { locations: [] });
      const c = t.client();
      const attack = async (round: string) => {
        // Each guess from its own address: only the count over every address grows.
        for (let i = 0; i < 25; i += 1)
          await signInFrom(c, `10.54.${round}.${i}`, owner.email, 'not-the-password');
      };
      await attack('1');
      await expect.poll(() => attackMails(t.server.dataDir, owner.email).length).toBe(1);
      nextWindow();
      await attack('2');
      clock.advance(24 * 3600 * 1000);
      await attack('3');
      await expect.poll(() => attackMails(t.server.dataDir, owner.email).length).toBe(2);
      // Round 2's would have been written long before round 3's.
      expect(attackMails(t.server.dataDir, owner.email)).toHaveLength(2);
    });

    it('a known device that fails too often is treated as unknown for the rest of the window', async () => {
      nextWindow();
      const owner = await createUser(t.server, { locations: [] });
      const device = t.client();
      expect((await signInFrom(device, '192.0.2.5', owner.email, owner.password)).text).toBe(
        'USER',
      );
      // Someone else fills the count over every address.
      for (let i = 0; i < 25; i += 1)
        await signInFrom(t.client(), `10.55.0.${i}`, owner.email, 'not-the-password');
      // A stolen cookie: ten guesses through it go at full speed, and count for it alone...
      for (let i = 0; i < 10; i += 1) {
        const { res, waits } = await waitsOf(sleep, () =>
          signInFrom(device, '203.0.113.9', owner.email, `stolen-guess-${i}`),
        );
        expect(res.text).toBe('');
        expect(waits).toEqual([]);
      }
      // ...then it waits like any stranger, and the owner's right password still gets in.
      const after = await waitsOf(sleep, () =>
        signInFrom(device, '192.0.2.5', owner.email, owner.password),
      );
      expect(after.res.text).toBe('USER');
      expect(after.waits).toHaveLength(1);
    });

    it('registrations past the ceiling over every address wait longer and longer, none refused', async () => {
      nextWindow();
      const c = t.client();
      const register = (ip: string, password = TEST_PASSWORD, email = uniqueEmail('burst')) =>
        waitsOf(sleep, () =>
          c.post(
            '/api/register-user/',
            { name: 'Bee Keeper', email, password, confirmPassword: password, locations: ['N'] },
            { 'x-forwarded-for': ip },
          ),
        );
      // Refused bodies and taken e-mails do not count: nobody slows real users down with them.
      for (let i = 0; i < 12; i += 1) {
        const bad = await register(`10.10.9.${i}`, 'password');
        expect(bad.res.status).toBe(400);
        expect(bad.waits).toEqual([]);
      }
      const taken = uniqueEmail('taken');
      expect((await register('10.10.8.0', TEST_PASSWORD, taken)).res.status).toBe(201);
      for (let i = 1; i <= 5; i += 1)
        expect((await register(`10.10.8.${i}`, TEST_PASSWORD, taken)).res.status).toBe(409);
      // 29 accounts from 4 addresses, as in the review: past 10 in all, each waits longer.
      const waits: number[] = [];
      for (let i = 0; i < 29; i += 1) {
        const got = await register(`10.10.0.${i % 4}`);
        expect(got.res.status).toBe(201);
        expect(got.waits.length).toBe(i < 9 ? 0 : 1);
        waits.push(...got.waits);
      }
      expect(waits).toEqual([...waits].sort((a, b) => a - b));
      expect(waits[0]).toBeGreaterThan(0);
      expect(waits.at(-1)).toBe(MAX_SLOWDOWN_MS);
      expect(
        logger.lines.some((l) => l.msg === 'registration slowed' && l.key === 'register:all'),
      ).toBe(true);

      nextWindow();
      const later = await register('10.10.0.1');
      expect(later.res.status).toBe(201);
      expect(later.waits).toEqual([]);
    });
  });
});

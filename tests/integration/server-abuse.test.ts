// Issue 44 (security review): sign-in lock-out by someone else, registration limits and weak
// passwords, bidi controls in names and look-alike addresses, against a real server on SQLite
// and PostgreSQL. TRUST_PROXY lets one test client speak from several IPs (X-Forwarded-For).
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../server/clock.ts';
import { RecordingSleep } from '../../server/sleep.ts';
import { loadConfig } from '../../server/config.ts';
import { silentLogger } from '../../server/logger.ts';
import { startServer } from '../../server/server.ts';
import { createUser, signedInUser } from '../support/factories/index.ts';
import {
  DB_KINDS,
  dbAvailable,
  startTestServer,
  TEST_PASSWORD,
  uniqueEmail,
  useTestServer,
} from '../support/server.ts';
import type { TestClient, TestResponse } from '../support/server.ts';

const WINDOW_S = 600;

function from(ip: string): Record<string, string> {
  return { 'x-forwarded-for': ip };
}

function signInFrom(c: TestClient, ip: string, email: string, password: string) {
  return c.post('/api/check-valid-user/', { email_address: email, password }, from(ip));
}

function expectThrottled(res: TestResponse): void {
  expect(res.status).toBe(429);
  const retry = Number(res.headers.get('retry-after'));
  expect(retry).toBeGreaterThan(0);
  const body = res.json<{ error: { code: string }; message: string }>();
  expect(body.error.code).toBe('RATE_LIMITED');
  expect(body.message).toMatch(/Please wait \d+ (seconds?|minutes?) and try again\./);
}

describe.each(DB_KINDS)('issue 44 on %s', (kind) => {
  describe.skipIf(!dbAvailable(kind))('sign-in and registration limits', () => {
    const clock = new ManualClock('2026-03-01T10:00:00Z');
    const sleep = new RecordingSleep();
    const t = useTestServer(kind, {
      clock,
      sleep: sleep.sleep,
      env: {
        TRUST_PROXY: 'true',
        RATE_LIMIT_MAX_PER_EMAIL: '3',
        RATE_LIMIT_MAX_PER_IP: '6',
        RATE_LIMIT_SLOW_AFTER_PER_EMAIL_ALL_IPS: '8',
        RATE_LIMIT_WINDOW_SECONDS: String(WINDOW_S),
        REGISTER_RATE_LIMIT_MAX_PER_IP: '2',
      },
    });
    const nextWindow = () => clock.advance((WINDOW_S + 1) * 1000);

    it("an attacker's failures lock only the attacker's IP; the owner signs in from theirs", async () => {
      nextWindow();
      const owner = await createUser(t.server, { locations: [] });
      const c = t.client();
      for (let i = 0; i < 3; i += 1)
        expect((await signInFrom(c, '10.6.6.6', owner.email, 'guess-' + i)).text).toBe('');
      const attacker = await signInFrom(c, '10.6.6.6', owner.email, owner.password);
      expectThrottled(attacker);
      expect(Number(attacker.headers.get('retry-after'))).toBeLessThanOrEqual(WINDOW_S);
      expect(attacker.json<{ message: string }>().message).toContain('10 minutes');

      const device = await signInFrom(t.client(), '192.0.2.10', owner.email, owner.password);
      expect(device.status).toBe(200);
      expect(device.text).toBe('USER');
    });

    it('a successful sign-in clears its own failures and is not counted', async () => {
      nextWindow();
      const owner = await createUser(t.server, { locations: [] });
      const c = t.client();
      // Without the reset, the fourth attempt here would be over the limit of 3.
      for (let round = 0; round < 2; round += 1) {
        expect((await signInFrom(c, '192.0.2.20', owner.email, 'typo-pass')).text).toBe('');
        expect((await signInFrom(c, '192.0.2.20', owner.email, 'typo-pass')).text).toBe('');
        expect((await signInFrom(c, '192.0.2.20', owner.email, owner.password)).text).toBe('USER');
      }
    });

    it('a looser limit per IP over many accounts; past the count per account over all IPs the owner is slowed, not refused', async () => {
      nextWindow();
      const c = t.client();
      for (let i = 0; i < 6; i += 1)
        expect((await signInFrom(c, '10.7.7.7', uniqueEmail(), 'x-password')).status).toBe(200);
      expectThrottled(await signInFrom(c, '10.7.7.7', uniqueEmail(), 'x-password'));

      const target = await createUser(t.server, { locations: [] });
      for (let i = 0; i < 8; i += 1)
        expect((await signInFrom(c, `10.8.0.${i}`, target.email, 'guess')).status).toBe(200);
      // Issue 54: this used to be a 429, which let anyone lock the owner out.
      const waited = sleep.waits.length;
      const owner = await signInFrom(t.client(), '10.8.0.99', target.email, target.password);
      expect(owner.text).toBe('USER');
      expect(sleep.waits.slice(waited)).toHaveLength(1);
    });

    it('forgot-password counts per e-mail and IP too', async () => {
      nextWindow();
      const email = uniqueEmail();
      const c = t.client();
      for (let i = 0; i < 3; i += 1)
        expect(
          (await c.post('/api/forgot-password', { email_address: email }, from('10.9.9.9'))).status,
        ).toBe(200);
      expectThrottled(
        await c.post('/api/forgot-password', { email_address: email }, from('10.9.9.9')),
      );
      const owner = await c.post(
        '/api/forgot-password',
        { email_address: email },
        from('192.0.2.30'),
      );
      expect(owner.status).toBe(200);
    });

    it('registration is limited per IP', async () => {
      nextWindow();
      const c = t.client();
      const register = (ip: string) =>
        c.post(
          '/api/register-user/',
          {
            name: 'Bee Keeper',
            email: uniqueEmail(),
            password: TEST_PASSWORD,
            confirmPassword: TEST_PASSWORD,
            locations: ['North'],
          },
          from(ip),
        );
      expect((await register('10.1.1.1')).status).toBe(201);
      expect((await register('10.1.1.1')).status).toBe(201);
      expectThrottled(await register('10.1.1.1'));
      expect((await register('10.1.1.2')).status).toBe(201);
    });
  });

  describe.skipIf(!dbAvailable(kind))('passwords and names', () => {
    const t = useTestServer(kind, {
      env: { REGISTER_RATE_LIMIT_MAX_PER_IP: '1000' },
    });

    it('refuses trivially guessable passwords at registration, with the reason', async () => {
      const c = t.client();
      const email = uniqueEmail('maya.beekeeper');
      const local = email.split('@')[0]!;
      const cases: Array<[string, RegExp]> = [
        ['        ', /only spaces/],
        ['password', /too common/],
        ['Password123!', /too common/],
        ['qwertyuiop', /too common/],
        ['zzzzzzzzzz', /one character repeated/],
        [email, /email address/],
        [local.toUpperCase(), /email address/],
      ];
      for (const [password, reason] of cases) {
        const res = await c.post('/api/register-user/', {
          name: 'Maya',
          email,
          password,
          confirmPassword: password,
          locations: [],
        });
        expect(res.status, password).toBe(400);
        const body = res.json<{ error: { fields: Record<string, string> } }>();
        expect(body.error.fields.password, password).toMatch(reason);
      }
      const ok = await c.post('/api/register-user/', {
        name: 'Maya',
        email,
        password: TEST_PASSWORD,
        confirmPassword: TEST_PASSWORD,
        locations: [],
      });
      expect(ok.status).toBe(201);
    });

    it('stores names without bidi controls', async () => {
      const c = t.client();
      const email = uniqueEmail();
      const res = await c.post('/api/register-user/', {
        name: 'Bob\u202Enimda\u2066 \u200FKeeper\u061C',
        email,
        password: TEST_PASSWORD,
        confirmPassword: TEST_PASSWORD,
        locations: [],
      });
      expect(res.status).toBe(201);
      const row = await t.server.app.db('users').where({ email }).first<{ name: string }>('name');
      expect(row.name).toBe('Bobnimda Keeper');
      const onlyControls = await c.post('/api/register-user/', {
        name: '\u202E\u202E',
        email: uniqueEmail(),
        password: TEST_PASSWORD,
        confirmPassword: TEST_PASSWORD,
      });
      expect(onlyControls.status).toBe(400);
    });

    it('flags mixed-script look-alike addresses in the admin users list and CSV', async () => {
      const { client } = await signedInUser(t.server, { role: 'ADMIN', locations: [] });
      const plain = await createUser(t.server, { locations: [] });
      const fake = await createUser(t.server, {
        locations: [],
        email: `p\u0430ypal-${Date.now()}@example.com`,
      });
      const rows = (await client.post('/api/users-and-products')).json<unknown[][]>();
      // The first five fields; name, role and ids follow (server-account-admin.test.ts).
      expect(rows.find((r) => r[0] === plain.email)?.slice(0, 5)).toEqual([
        plain.email,
        '',
        '',
        '',
        false,
      ]);
      expect(rows.find((r) => r[0] === fake.email)?.slice(0, 5)).toEqual([
        fake.email,
        '',
        '',
        '',
        true,
      ]);
      await client.post('/api/get-all-users');
      const csv = (await client.get('/api/download-csv?file_name=all_users.csv')).text;
      expect(csv.split('\n')[0]).toMatch(/,lookalike_email$/);
      expect(csv.split('\n').find((l) => l.startsWith(fake.email))).toMatch(/,true$/);
    });
  });

  describe.skipIf(!dbAvailable(kind))('headers', () => {
    const https = useTestServer(kind, {
      env: {
        PUBLIC_URL: 'https://hives.example.org',
        INTRO_VIDEO_URL: 'https://cdn.example.net/i.mp4',
      },
    });
    const http = useTestServer(kind);

    it('CSP, Permissions-Policy and HSTS over https; no-store on signed-in JSON', async () => {
      const { client } = await signedInUser(https.server, { locations: [] });
      for (const res of [await client.get('/api/me'), await client.get('/login')]) {
        const csp = res.headers.get('content-security-policy') ?? '';
        expect(csp).toContain("script-src 'self'");
        expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
        expect(csp).toContain("frame-ancestors 'none'");
        expect(csp).toContain("media-src 'self' blob: https://cdn.example.net");
        expect(res.headers.get('permissions-policy')).toContain('camera=()');
        expect(res.headers.get('strict-transport-security')).toMatch(/max-age=\d{7,}/);
      }
      const me = await client.get('/api/me');
      expect(me.status).toBe(200);
      expect(me.headers.get('cache-control')).toBe('no-store');
      const list = await client.post('/api/get-uploaded-files-list/', {});
      expect(list.headers.get('cache-control')).toBe('no-store');
    });

    it('no HSTS when PUBLIC_URL is http', async () => {
      const res = await http.client().get('/api/me');
      expect(res.headers.get('strict-transport-security')).toBeNull();
      expect(res.headers.get('content-security-policy')).toContain("default-src 'self'");
    });
  });

  describe.skipIf(kind !== 'sqlite')('counters shared by processes', () => {
    it('a second server on the same database sees the first one’s failures', async () => {
      const env = { RATE_LIMIT_MAX_PER_EMAIL: '2', RATE_LIMIT_WINDOW_SECONDS: '600' };
      const { sleep } = new RecordingSleep();
      const a = await startTestServer(kind, { env, sleep });
      const b = await startTestServer(kind, { env: { ...env, DATA_DIR: a.dataDir }, sleep });
      try {
        const user = await createUser(a, { locations: [] });
        expect((await signInFrom(a.client(), '127.0.0.1', user.email, 'wrong-one')).text).toBe('');
        expect((await signInFrom(b.client(), '127.0.0.1', user.email, 'wrong-two')).text).toBe('');
        expectThrottled(await signInFrom(a.client(), '127.0.0.1', user.email, user.password));
        expectThrottled(await signInFrom(b.client(), '127.0.0.1', user.email, user.password));
      } finally {
        await b.stop();
        await a.stop();
      }
    });
  });

  describe.skipIf(kind !== 'sqlite')('listening address', () => {
    it('without HOST the server listens on loopback only', async () => {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hs-host-'));
      const running = await startServer(
        loadConfig({ PORT: '0', DATA_DIR: dataDir, WORKER_CONCURRENCY: '0' }),
        { logger: silentLogger, worker: false, consoleDir: path.join(dataDir, 'none') },
      );
      try {
        expect((running.server.address() as AddressInfo).address).toBe('127.0.0.1');
        expect((await fetch(`${running.url}/api/me`)).status).toBe(401);
      } finally {
        await running.stop();
        fs.rmSync(dataDir, { recursive: true, force: true });
      }
    });
  });
});

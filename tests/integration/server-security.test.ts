// Rate limits, the Origin check, body limits, unknown API paths and the console's static serving,
// against a real server on SQLite and PostgreSQL.
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../server/clock.ts';
import { RecordingSleep } from '../../server/sleep.ts';
import { createUser } from '../support/factories/index.ts';
import {
  DB_KINDS,
  dbAvailable,
  TEST_PASSWORD,
  uniqueEmail,
  useTestServer,
} from '../support/server.ts';

/** A raw GET so that `..` segments reach the server unnormalised (fetch would resolve them). */
function rawGet(
  url: string,
  rawPath: string,
): Promise<{ status: number; body: string; type: string }> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: u.hostname, port: u.port, path: rawPath, method: 'GET' },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            body: Buffer.concat(chunks).toString('utf8'),
            type: String(res.headers['content-type']),
          }),
        );
      },
    );
    req.on('error', reject);
    req.end();
  });
}

const consoleDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hs-console-'));
fs.mkdirSync(path.join(consoleDir, 'assets'));
fs.writeFileSync(
  path.join(consoleDir, 'index.html'),
  '<!doctype html><title>HiveSight</title><div id="root"></div>',
);
fs.writeFileSync(path.join(consoleDir, 'assets', 'index-abc123.js'), 'console.log("hive")');
fs.writeFileSync(path.join(consoleDir, '.env'), 'SECRET=1');
afterAll(() => fs.rmSync(consoleDir, { recursive: true, force: true }));

describe.each(DB_KINDS)('security on %s', (kind) => {
  describe.skipIf(!dbAvailable(kind))('rate limits', () => {
    const clock = new ManualClock('2026-03-01T10:00:00Z');
    const t = useTestServer(kind, {
      clock,
      sleep: new RecordingSleep().sleep,
      env: {
        RATE_LIMIT_MAX_PER_EMAIL: '3',
        RATE_LIMIT_MAX_PER_IP: '4',
        RATE_LIMIT_WINDOW_SECONDS: '600',
      },
    });

    it('sign-in: per e-mail then per IP, 429 with Retry-After; the window slides', async () => {
      const user = await createUser(t.server, { locations: [] });
      const c = t.client();
      for (let i = 0; i < 3; i += 1) {
        expect(
          (
            await c.post('/api/check-valid-user/', {
              email_address: user.email,
              password: 'wrong-pass',
            })
          ).text,
        ).toBe('');
      }
      // Even the right password is refused once the e-mail is over its limit from this IP.
      const limited = await c.post('/api/check-valid-user/', {
        email_address: user.email.toUpperCase(),
        password: TEST_PASSWORD,
      });
      expect(limited.status).toBe(429);
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(limited.json<{ error: { code: string } }>().error.code).toBe('RATE_LIMITED');
      // Another e-mail from the same IP: allowed until the IP limit (4 counted hits in the
      // window; the refused attempt above was not counted).
      const other = uniqueEmail();
      expect(
        (await c.post('/api/check-valid-user/', { email_address: other, password: 'x-password' }))
          .status,
      ).toBe(200);
      expect(
        (
          await c.post('/api/check-valid-user/', {
            email_address: uniqueEmail(),
            password: 'x-password',
          })
        ).status,
      ).toBe(429);

      clock.advance(601 * 1000);
      const after = await c.post('/api/check-valid-user/', {
        email_address: user.email,
        password: TEST_PASSWORD,
      });
      expect(after.status).toBe(200);
      expect(after.text).toBe('USER');
    });

    it('forgot-password is limited per e-mail', async () => {
      clock.advance(601 * 1000);
      const c = t.client();
      const email = uniqueEmail();
      for (let i = 0; i < 3; i += 1) {
        expect((await c.post('/api/forgot-password', { email_address: email })).status).toBe(200);
      }
      expect((await c.post('/api/forgot-password', { email_address: email })).status).toBe(429);
    });
  });

  describe.skipIf(!dbAvailable(kind))('requests', () => {
    const t = useTestServer(kind, { consoleDir, env: { PUBLIC_URL: 'https://hives.example.org' } });

    it('refuses cross-site state-changing requests by Origin or Referer (403), allows same-site ones', async () => {
      const c = t.client();
      for (const headers of [
        { origin: 'https://evil.example' },
        { origin: 'null' },
        { referer: 'https://evil.example/page' },
        { origin: 'https://hives.example.org.evil.example' },
      ] as Array<Record<string, string>>) {
        const res = await c.post(
          '/api/check-valid-user/',
          { email_address: 'a@b.co', password: 'password1' },
          headers,
        );
        expect(res.status, JSON.stringify(headers)).toBe(403);
        expect(res.json<{ message: string }>().message).toBe('Cross-site request refused');
      }
      for (const headers of [
        { origin: 'https://hives.example.org' },
        { origin: t.server.url },
        { referer: `${t.server.url}/login` },
        {},
      ] as Array<Record<string, string>>) {
        const res = await c.post('/api/logout', {}, headers);
        expect(res.status, JSON.stringify(headers)).toBe(200);
      }
      // Safe methods are not checked.
      expect((await c.get('/api/me', { origin: 'https://evil.example' })).status).toBe(401);
    });

    it('refuses oversized JSON (413) and malformed JSON (400) with the error shape', async () => {
      const c = t.client();
      const big = await c.post('/api/register-user/', { name: 'x'.repeat(200 * 1024) });
      expect(big.status).toBe(413);
      expect(big.json<{ error: { code: string } }>().error.code).toBe('PAYLOAD_TOO_LARGE');
      const bad = await c.request('POST', '/api/register-user/', {
        body: '{"name":',
        headers: { 'content-type': 'application/json' },
      });
      expect(bad.status).toBe(400);
      expect(bad.json<{ message: string }>().message).toBe('The request body is not valid JSON');
    });

    it('unknown API paths are JSON 404s, never the console', async () => {
      const res = await t.client().get('/api/nothing-here');
      expect(res.status).toBe(404);
      expect(res.json<{ error: { code: string } }>().error.code).toBe('NOT_FOUND');
    });

    it('serves the console with SPA fallback, content types and cache headers; no path escapes', async () => {
      const c = t.client();
      for (const p of ['/', '/login', '/file-grouping/result', '/reset-password?token=abc']) {
        const res = await c.get(p);
        expect(res.status, p).toBe(200);
        expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
        expect(res.headers.get('cache-control')).toBe('no-cache');
        expect(res.text).toContain('<title>HiveSight</title>');
      }
      const js = await c.get('/assets/index-abc123.js');
      expect(js.status).toBe(200);
      expect(js.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
      expect(js.headers.get('cache-control')).toContain('immutable');
      expect((await c.get('/assets/missing-999.js')).status).toBe(404);
      for (const p of [
        '/.env',
        '/%2e%2e/%2e%2e/etc/passwd',
        '/../../../../etc/passwd',
        '/assets/..%2f..%2fetc%2fpasswd',
        '/%00',
      ]) {
        const res = await rawGet(t.server.url, p);
        expect(res.body, p).not.toContain('SECRET');
        expect(res.body, p).not.toContain('root:');
      }
    });

    it('marks the session cookie Secure when PUBLIC_URL is https', async () => {
      const user = await createUser(t.server, { locations: [] });
      const res = await t
        .client()
        .post('/api/check-valid-user/', { email_address: user.email, password: user.password });
      expect(res.headers.getSetCookie().join()).toMatch(/hs_session=[^;]+;.*Secure/);
    });
  });
});

// Sign-in, registration, sessions and logout against a real server, on SQLite and PostgreSQL.
import { describe, expect, it } from 'vitest';
import { createUser } from '../support/factories/index.ts';
import {
  DB_KINDS,
  dbAvailable,
  signIn,
  signUp,
  TEST_PASSWORD,
  uniqueEmail,
  useTestServer,
} from '../support/server.ts';

interface ErrorBody {
  error: { code: string; message: string; fields?: Record<string, string> };
  message: string;
}

describe.each(DB_KINDS)('identity routes on %s', (kind) => {
  describe.skipIf(!dbAvailable(kind))('', () => {
    const t = useTestServer(kind);

    it('signs in: role string + HttpOnly SameSite=Lax cookie; wrong password gives 200 and an empty body', async () => {
      const c = t.client();
      const email = await signUp(c, { email: uniqueEmail() });
      const ok = await c.post('/api/check-valid-user/', {
        email_address: email.toUpperCase(),
        password: TEST_PASSWORD,
      });
      expect(ok.status).toBe(200);
      expect(ok.text).toBe('USER');
      const cookie = ok.headers.getSetCookie().find((l) => l.startsWith('hs_session='));
      expect(cookie).toMatch(/HttpOnly/);
      expect(cookie).toMatch(/SameSite=Lax/);
      expect(cookie).not.toMatch(/Secure/);
      // Stored as sha256, never the token itself.
      const token = c.cookies.get('hs_session')!;
      expect(await t.server.app.db('sessions').where({ id: token }).first()).toBeUndefined();

      const bad = t.client();
      for (const body of [
        { email_address: email, password: 'wrong-password' },
        { email_address: 'nobody@example.com', password: TEST_PASSWORD },
        { email_address: '', password: '' },
        {},
      ]) {
        const res = await bad.post('/api/check-valid-user/', body);
        expect(res.status).toBe(200);
        expect(res.text).toBe('');
      }
      expect(bad.cookies.size).toBe(0);
      expect((await bad.get('/api/me')).status).toBe(401);
    });

    it('admins sign in as ADMIN', async () => {
      const admin = await createUser(t.server, { locations: [], role: 'ADMIN' });
      expect(await signIn(t.client(), admin.email, admin.password)).toBe('ADMIN');
    });

    it('registers with trimmed, de-duplicated locations and lower-cased e-mail; duplicate e-mail 409', async () => {
      const c = t.client();
      const email = uniqueEmail().replace('user', 'MixedCase');
      const res = await c.post('/api/register-user/', {
        name: 'Ana',
        email,
        password: 'honey-gate-8',
        confirmPassword: 'honey-gate-8',
        locations: ['  North  ', '', 'North', 'south field', '   ', 'South Field', 42],
      });
      expect(res.status).toBe(201);
      expect(res.json<{ message: string }>().message).toBe('Registration successful!');
      expect(res.text).toBeTruthy();
      expect(await signIn(c, email.toLowerCase(), 'honey-gate-8')).toBe('USER');
      const locs = await c.post('/api/get-locations-user/', {
        email_address: 'someone-else@example.com',
      });
      expect(locs.json()).toEqual([['North'], ['south field']]);
      const me = await c.get('/api/me');
      expect(me.json()).toEqual({
        email: email.toLowerCase(),
        name: 'Ana',
        role: 'USER',
        products: [],
      });

      const dup = await t.client().post('/api/register-user/', {
        name: 'Other',
        email: email.toUpperCase(),
        password: 'honey-gate-9',
        confirmPassword: 'honey-gate-9',
        locations: [],
      });
      expect(dup.status).toBe(409);
      expect(dup.json<ErrorBody>().message).toBe('An account with this email already exists');
    });

    it.each([
      [
        { email: 'a@b.co', password: 'honey-comb1', confirmPassword: 'honey-comb1' },
        'name',
        'Name is required',
      ],
      [
        { name: 'A', password: 'honey-comb1', confirmPassword: 'honey-comb1' },
        'email',
        'Email is required',
      ],
      [
        {
          name: 'A',
          email: 'not-an-email',
          password: 'honey-comb1',
          confirmPassword: 'honey-comb1',
        },
        'email',
        'Invalid email',
      ],
      [
        { name: 'A', email: 'a@b.co', confirmPassword: 'honey-comb1' },
        'password',
        'Password is required',
      ],
      [
        { name: 'A', email: 'a@b.co', password: 'short', confirmPassword: 'short' },
        'password',
        'Password must be at least 8 characters',
      ],
      [
        { name: 'A', email: 'a@b.co', password: 'honey-comb1' },
        'confirmPassword',
        'Confirm Password is required',
      ],
      [
        { name: 'A', email: 'a@b.co', password: 'honey-comb1', confirmPassword: 'honey-comb2' },
        'confirmPassword',
        'Passwords must match',
      ],
    ])('registration refuses %j: %s -> %s', async (body, field, message) => {
      const res = await t.client().post('/api/register-user/', { locations: [''], ...body });
      expect(res.status).toBe(400);
      const err = res.json<ErrorBody>();
      expect(err.message).toBe(message);
      expect(err.error.fields?.[field]).toBe(message);
      expect(err.error.code).toBe('VALIDATION');
    });

    it('reports every registration problem at once', async () => {
      const res = await t.client().post('/api/register-user/', {});
      const err = res.json<ErrorBody>();
      expect(err.error.fields).toEqual({
        name: 'Name is required',
        email: 'Email is required',
        password: 'Password is required',
        confirmPassword: 'Confirm Password is required',
      });
    });

    it('logout ends the session on the server: the old cookie is refused afterwards', async () => {
      const c = t.client();
      const email = await signUp(c);
      await signIn(c, email);
      const oldCookie = c.cookieHeader;
      expect((await c.get('/api/me')).status).toBe(200);
      const out = await c.post('/api/logout');
      expect(out.status).toBe(200);
      expect(out.headers.getSetCookie().join()).toMatch(/hs_session=;.*Max-Age=0/);
      expect((await c.get('/api/me')).status).toBe(401);
      const replay = await t.client().get('/api/me', { cookie: oldCookie });
      expect(replay.status).toBe(401);
      expect(replay.json<ErrorBody>().error.code).toBe('UNAUTHORIZED');
      // Logging out while signed out is harmless.
      expect((await t.client().post('/api/logout')).status).toBe(200);
    });

    it('a forged or unknown cookie is 401', async () => {
      for (const cookie of [
        'hs_session=abc',
        `hs_session=${'A'.repeat(43)}`,
        'hs_session=../../etc',
      ]) {
        expect((await t.client().get('/api/me', { cookie })).status).toBe(401);
      }
    });

    it('signed-out calls are 401 with the JSON error shape', async () => {
      const c = t.client();
      for (const [method, p] of [
        ['GET', '/api/me'],
        ['POST', '/api/valid-products-and-file-size'],
        ['POST', '/api/get-locations-user/'],
        ['POST', '/api/users-and-products'],
        ['POST', '/api/get-all-users'],
        ['GET', '/api/download-csv?file_name=all_users.csv'],
      ] as const) {
        const res = await c.request(method, p, method === 'POST' ? { json: {} } : {});
        expect(res.status, `${method} ${p}`).toBe(401);
        expect(res.json<ErrorBody>().message).toBeTruthy();
      }
    });
  });
});

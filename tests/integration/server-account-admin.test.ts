// Plans/limits, locations and the admin users overview + CSV export, on SQLite and PostgreSQL.
import { describe, expect, it } from 'vitest';
import { createUser, grantProduct, signedInUser } from '../support/factories/index.ts';
import { DB_KINDS, dbAvailable, signIn, signUp, useTestServer } from '../support/server.ts';

const MB = 1024 * 1024;
const today = (): string => new Date().toISOString().slice(0, 10);
const dayOffset = (days: number): string =>
  new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

describe.each(DB_KINDS)('account and admin routes on %s', (kind) => {
  describe.skipIf(!dbAvailable(kind))('', () => {
    const t = useTestServer(kind);

    it('valid-products-and-file-size: Free 10 MB, Premium 20 MB, Researcher 50 MB, largest active wins', async () => {
      const { client, email } = await signedInUser(t.server, { locations: [] });
      const limits = async (): Promise<unknown> =>
        (await client.post('/api/valid-products-and-file-size', { email_address: email })).json();
      expect(await limits()).toEqual({ valid_products: [], max_file_size: 10 * MB });
      await grantProduct(t.server, email, 'Bees Premium Subscription', today());
      expect(await limits()).toEqual({
        valid_products: ['Bees Premium Subscription'],
        max_file_size: 20 * MB,
      });
      await grantProduct(t.server, email, 'Researcher', dayOffset(-1)); // ended yesterday: inactive
      expect(await limits()).toEqual({
        valid_products: ['Bees Premium Subscription'],
        max_file_size: 20 * MB,
      });
      await grantProduct(t.server, email, 'Researcher', dayOffset(30), dayOffset(1)); // starts tomorrow: inactive
      expect(((await limits()) as { max_file_size: number }).max_file_size).toBe(20 * MB);
      await grantProduct(t.server, email, 'Researcher', dayOffset(365));
      expect(await limits()).toEqual({
        valid_products: ['Bees Premium Subscription', 'Researcher'],
        max_file_size: 50 * MB,
      });
      expect((await client.get('/api/me')).json<{ products: string[] }>().products).toEqual([
        'Bees Premium Subscription',
        'Researcher',
      ]);
    });

    it('email_address in the body never selects another user', async () => {
      const rich = await createUser(t.server, { locations: ['Rich Apiary'] });
      await grantProduct(t.server, rich.email, 'Researcher', dayOffset(365));
      const c = t.client();
      const mine = await signUp(c, { locations: ['My Yard'] });
      await signIn(c, mine);
      const limits = await c.post('/api/valid-products-and-file-size', {
        email_address: rich.email,
      });
      expect(limits.json()).toEqual({ valid_products: [], max_file_size: 10 * MB });
      const locs = await c.post('/api/get-locations-user/', { email_address: rich.email });
      expect(locs.json()).toEqual([['My Yard']]);
    });

    it('get-locations-user answers [] without locations', async () => {
      const { client } = await signedInUser(t.server, { locations: [] });
      expect((await client.post('/api/get-locations-user/', {})).json()).toEqual([]);
    });

    it('admin calls are 403 for a USER', async () => {
      const { client } = await signedInUser(t.server, { role: 'USER', locations: [] });
      for (const [method, p] of [
        ['POST', '/api/users-and-products'],
        ['POST', '/api/get-all-users'],
        ['GET', '/api/download-csv?file_name=all_users.csv'],
        ['POST', '/api/admin/users/1/products'],
        ['POST', '/api/admin/products/1/extend'],
        ['POST', '/api/admin/products/1/revoke'],
      ] as const) {
        const res = await client.request(method, p, method === 'POST' ? { json: {} } : {});
        expect(res.status, p).toBe(403);
        expect(res.json<{ message: string }>().message).toBe('Administrators only');
      }
    });

    it('download-csv before any export is 404; users-and-products lists every user', async () => {
      const { client } = await signedInUser(t.server, { role: 'ADMIN', locations: [] });
      expect((await client.get('/api/download-csv?file_name=all_users.csv')).status).toBe(404);
      const withProduct = await createUser(t.server, { name: 'Direct User', locations: [] });
      await grantProduct(t.server, withProduct.email, 'Researcher', '2031-12-31', '2026-01-01');
      const without = await createUser(t.server, { name: 'Direct User', locations: [] });
      const rows = (await client.post('/api/users-and-products')).json<unknown[][]>();
      // The spec's four fields, then lookalike_email (issue 44), then the name and role the
      // console shows and the ids its grant, extend and revoke use (issue 57).
      const granted = rows.find((r) => r[0] === withProduct.email)!;
      expect(granted.slice(0, 8)).toEqual([
        withProduct.email,
        '2026-01-01',
        '2031-12-31',
        'Researcher',
        false,
        'Direct User',
        'USER',
        withProduct.id,
      ]);
      expect(granted[8]).toEqual(expect.any(Number));
      expect(rows).toContainEqual([
        without.email,
        '',
        '',
        '',
        false,
        'Direct User',
        'USER',
        without.id,
        null,
      ]);
      for (const row of rows) expect(row).toHaveLength(9);
    });

    it('get-all-users writes all_users.csv; download-csv serves it and refuses anything else', async () => {
      const { client } = await signedInUser(t.server, { role: 'ADMIN', locations: [] });
      const evil = await createUser(t.server, { locations: [], name: '=HYPERLINK("http://evil")' });
      const gen = await client.post('/api/get-all-users');
      expect(gen.status).toBe(200);
      expect(gen.json()).toEqual({ file_name: 'all_users.csv' });
      const dl = await client.get('/api/download-csv?file_name=all_users.csv');
      expect(dl.status).toBe(200);
      expect(dl.headers.get('content-type')).toMatch(/^text\/csv/);
      expect(dl.headers.get('content-disposition')).toBe('attachment; filename="all_users.csv"');
      const lines = dl.text.trim().split('\n');
      expect(lines[0]).toBe(
        'email,name,role,created_at,product_name,start_date,end_date,lookalike_email',
      );
      const evilLine = lines.find((l) => l.startsWith(evil.email));
      expect(evilLine).toContain(`'=HYPERLINK`);

      for (const name of [
        '../all_users.csv',
        '/etc/passwd',
        '..%2Fhivesight.sqlite',
        'hivesight.sqlite',
        '../hivesight.sqlite',
        'ALL_USERS.csv',
        'all_users.csv%00.txt',
        'exports/all_users.csv',
        '',
      ]) {
        const res = await client.get(`/api/download-csv?file_name=${name}`);
        expect(res.status, name).toBe(400);
        expect(res.text).not.toContain('password_hash');
      }
      expect((await client.get('/api/download-csv')).status).toBe(400);
    });
  });
});

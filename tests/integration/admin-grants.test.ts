// Administrators grant, extend and revoke products from the console (issue 57), on SQLite and
// PostgreSQL, with the server's clock fixed: what each answers, what the user's plan becomes, and
// a clear refusal for every bad request, which changes nothing.
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../server/clock.ts';
import { createUser, signedInUser } from '../support/factories/index.ts';
import { DB_KINDS, dbAvailable, signIn, useTestServer } from '../support/server.ts';
import type { TestClient } from '../support/server.ts';

const MB = 1024 * 1024;

describe.each(DB_KINDS)('admin grants on %s', (kind) => {
  describe.skipIf(!dbAvailable(kind))('', () => {
    const clock = new ManualClock(new Date('2027-03-10T12:00:00.000Z'));
    const t = useTestServer(kind, { clock });

    /** A user with a signed-in client, for what their plan gives them. */
    const member = async () => {
      const user = await createUser(t.server, { locations: [] });
      const client = t.client();
      await signIn(client, user.email, user.password);
      const limit = async () =>
        (await client.post('/api/valid-products-and-file-size', {})).json<{
          valid_products: string[];
          max_file_size: number;
        }>();
      return { ...user, client, limit };
    };
    const listed = async (admin: TestClient, userId: number) =>
      (await admin.post('/api/users-and-products'))
        .json<unknown[][]>()
        .filter((r) => r[7] === userId);

    it('grants a product from today to an end date, and the plan applies at once', async () => {
      const { client: admin } = await signedInUser(t.server, { role: 'ADMIN', locations: [] });
      const user = await member();
      expect((await user.limit()).max_file_size).toBe(10 * MB);
      const res = await admin.post(`/api/admin/users/${user.id}/products`, {
        product_name: 'Researcher',
        end_date: '2027-12-31',
      });
      expect(res.status, res.text).toBe(201);
      expect(res.json()).toMatchObject({
        user_id: user.id,
        product_name: 'Researcher',
        start_date: '2027-03-10',
        end_date: '2027-12-31',
        active: true,
      });
      expect(await user.limit()).toEqual({
        valid_products: ['Researcher'],
        max_file_size: 50 * MB,
      });
      const [row] = await listed(admin, user.id);
      expect(row!.slice(1, 4)).toEqual(['2027-03-10', '2027-12-31', 'Researcher']);
      expect(row![8]).toBe(res.json<{ id: number }>().id);
    });

    it('extends a grant to a later end date, and refuses an earlier one', async () => {
      const { client: admin } = await signedInUser(t.server, { role: 'ADMIN', locations: [] });
      const user = await member();
      const { id } = (
        await admin.post(`/api/admin/users/${user.id}/products`, {
          product_name: 'Bees Premium Subscription',
          end_date: '2027-04-01',
        })
      ).json<{ id: number }>();
      const longer = await admin.post(`/api/admin/products/${id}/extend`, {
        end_date: '2028-04-01',
      });
      expect(longer.status, longer.text).toBe(200);
      expect(longer.json()).toMatchObject({ id, end_date: '2028-04-01', active: true });
      const shorter = await admin.post(`/api/admin/products/${id}/extend`, {
        end_date: '2027-05-01',
      });
      expect(shorter.status).toBe(400);
      expect(
        shorter.json<{ error: { fields: Record<string, string> } }>().error.fields.end_date,
      ).toBe(
        'end_date must be after the current end date (2028-04-01); revoke the product to end it sooner.',
      );
      const [row] = await listed(admin, user.id);
      expect(row!.slice(1, 4)).toEqual(['2027-03-10', '2028-04-01', 'Bees Premium Subscription']);
    });

    it('revokes a grant: ended yesterday, inactive today, its history kept', async () => {
      const { client: admin } = await signedInUser(t.server, { role: 'ADMIN', locations: [] });
      const user = await member();
      const { id } = (
        await admin.post(`/api/admin/users/${user.id}/products`, {
          product_name: 'Researcher',
          start_date: '2027-01-01',
          end_date: '2027-12-31',
        })
      ).json<{ id: number }>();
      expect((await user.limit()).valid_products).toEqual(['Researcher']);
      const res = await admin.post(`/api/admin/products/${id}/revoke`, {});
      expect(res.status, res.text).toBe(200);
      expect(res.json()).toMatchObject({
        id,
        end_date: '2027-03-09',
        active: false,
        removed: false,
      });
      expect(await user.limit()).toEqual({ valid_products: [], max_file_size: 10 * MB });
      const [row] = await listed(admin, user.id);
      expect(row!.slice(1, 4)).toEqual(['2027-01-01', '2027-03-09', 'Researcher']);
    });

    it('revoking a grant that starts today or later removes it', async () => {
      const { client: admin } = await signedInUser(t.server, { role: 'ADMIN', locations: [] });
      const user = await member();
      const { id } = (
        await admin.post(`/api/admin/users/${user.id}/products`, {
          product_name: 'Researcher',
          end_date: '2027-12-31',
        })
      ).json<{ id: number }>();
      const res = await admin.post(`/api/admin/products/${id}/revoke`, {});
      expect(res.json()).toMatchObject({ id, active: false, removed: true });
      const rows = await listed(admin, user.id);
      expect(rows).toHaveLength(1);
      expect(rows[0]!.slice(1, 4)).toEqual(['', '', '']);
      expect(rows[0]![8]).toBeNull();
      expect((await admin.post(`/api/admin/products/${id}/revoke`, {})).status).toBe(404);
    });

    it('refuses bad grants with a reason per field, and grants nothing', async () => {
      const { client: admin } = await signedInUser(t.server, { role: 'ADMIN', locations: [] });
      const user = await member();
      const refused = async (
        path: string,
        body: unknown,
        field: string,
        message: string | RegExp,
      ) => {
        const res = await admin.post(path, body);
        expect(res.status, `${path} ${JSON.stringify(body)}`).toBe(400);
        expect(
          res.json<{ error: { fields: Record<string, string> } }>().error.fields[field],
        ).toMatch(message);
      };
      const grants = `/api/admin/users/${user.id}/products`;
      await refused(
        grants,
        { product_name: 'Gold', end_date: '2027-12-31' },
        'product_name',
        /one of: Bees Premium Subscription, Researcher/,
      );
      await refused(grants, { product_name: 'Researcher' }, 'end_date', /YYYY-MM-DD/);
      await refused(
        grants,
        { product_name: 'Researcher', end_date: '2027-02-30' },
        'end_date',
        /YYYY-MM-DD/,
      );
      await refused(
        grants,
        { product_name: 'Researcher', end_date: '2027-03-09' },
        'end_date',
        'end_date must be today (2027-03-10) or later.',
      );
      await refused(
        grants,
        { product_name: 'Researcher', start_date: '2027-06-01', end_date: '2027-05-01' },
        'end_date',
        /not be before start_date/,
      );
      await refused(
        grants,
        { product_name: 'Researcher', start_date: 'soon', end_date: '2027-05-01' },
        'start_date',
        /YYYY-MM-DD/,
      );
      expect((await listed(admin, user.id))[0]![8]).toBeNull();
      expect((await user.limit()).valid_products).toEqual([]);

      const missing = await admin.post('/api/admin/users/999999/products', {
        product_name: 'Researcher',
        end_date: '2027-12-31',
      });
      expect(missing.status).toBe(404);
      expect(missing.json<{ message: string }>().message).toBe('No such user');
      for (const path of ['/api/admin/products/999999/extend', '/api/admin/products/abc/revoke']) {
        const res = await admin.post(path, { end_date: '2030-01-01' });
        expect(res.status, path).toBe(404);
        expect(res.json<{ message: string }>().message).toBe('No such granted product');
      }
    });
  });
});

/**
 * Issue 55: every JSON route's real answer follows its schema in the contract. One user's and one
 * administrator's day through a real server, on SQLite and PostgreSQL: each answer is checked as
 * the test servers check every answer (server/middleware/answer-check.ts: the schema, no field
 * it lacks, the contract's status). The few routes that need the engine, an SMTP relay or a
 * queued job are checked by the tests named in ELSEWHERE; the last test holds the two lists to
 * the route table, so that a route added to the contract is checked somewhere.
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { CallableKey } from '../../contract/client.ts';
import type { RouteSpec } from '../../contract/route.ts';
import { splitRouteKey } from '../../contract/route.ts';
import { ROUTES } from '../../contract/routes.ts';
import type { RouteKey } from '../../contract/routes.ts';
import { answerProblem } from '../../server/middleware/answer-check.ts';
import {
  counts,
  createFile,
  frames,
  grantProduct,
  signedInUser,
} from '../support/factories/index.ts';
import { DB_KINDS, dbAvailable, useTestServer } from '../support/server.ts';
import type { TestClient } from '../support/server.ts';

/** JSON routes whose answers other tests reach (with the answer check on in every test server). */
const ELSEWHERE: Partial<Record<CallableKey, string>> = {
  'POST /api/forgot-password': 'server-password-reset.test.ts (an SMTP relay)',
  'POST /api/reset-password': 'server-password-reset.test.ts (a mailed token)',
  'POST /api/upload_docs/': 'files-upload.test.ts (ffprobe over real media)',
  'POST /api/files/:id/count-again': 'count-again.test.ts (a finished job, a kept video)',
  'GET /api/files/:id/frames/:index': 'corrections.test.ts (the engine on a real photo)',
  'PUT /api/files/:id/frames/:index': 'corrections.test.ts (the engine on a real photo)',
  'GET /api/locations/:id/calibration': 'calibration.test.ts (corrected frames, a worker fit)',
  'POST /api/locations/:id/calibration': 'calibration.test.ts (corrected frames, a worker fit)',
  'PATCH /api/locations/:id/calibration': 'calibration.test.ts (corrected frames, a worker fit)',
  'POST /api/files/:id/count-again/calibration': 'calibration.test.ts (a worker fit, a kept file)',
};

const SPECS: Record<string, RouteSpec> = ROUTES;
const JSON_ROUTES = (Object.keys(ROUTES) as RouteKey[]).filter((key) => {
  const answer = SPECS[key]!.answer;
  return answer === null || !('kind' in answer);
});

const checked = new Set<string>();

/** Calls `key` and holds its answer to the contract; answers the parsed body. */
async function hit<T = unknown>(
  client: TestClient,
  key: CallableKey,
  params: Record<string, string | number> = {},
  body?: unknown,
  query = '',
): Promise<T> {
  const { method, path } = splitRouteKey(key);
  const url = path.replace(/:(\w+)/g, (_, name: string) => String(params[name])) + query;
  const res = await client.request(method, url, body === undefined ? {} : { json: body });
  const sent: unknown = res.text === '' ? undefined : JSON.parse(res.text);
  expect([key, res.status, answerProblem(key, res.status, sent)]).toEqual([
    key,
    SPECS[key]!.status ?? 200,
    null,
  ]);
  checked.add(key);
  return sent as T;
}

describe.each(DB_KINDS)('every JSON answer follows the contract on %s', (kind) => {
  const t = useTestServer(kind);
  const run = it.skipIf(!dbAvailable(kind));

  run('a user’s account, hive locations, files, corrections and comparison', async () => {
    const { client, id: userId, email } = await signedInUser(t.server);
    await grantProduct(t.server, email, 'Researcher', '2099-12-31');
    const open = t.server.client();
    await hit(open, 'GET /api/public-config');
    await hit(open, 'GET /api/openapi.json');
    await hit(
      open,
      'POST /api/register-user/',
      {},
      {
        name: 'New Keeper',
        email: `keeper-${kind}-${Date.now()}@example.com`,
        password: 'correct-horse-1',
        confirmPassword: 'correct-horse-1',
        locations: ['Meadow'],
      },
    );

    await hit(client, 'GET /api/me');
    await hit(client, 'POST /api/valid-products-and-file-size');
    await hit(client, 'POST /api/get-locations-user/');
    await hit(client, 'GET /api/account/settings');
    await hit(client, 'POST /api/account/settings', {}, { hornet_alerts: true });
    await hit(client, 'GET /api/account/training-consent');
    await hit(client, 'POST /api/account/training-consent', {}, { consent: true });

    const { location } = await hit<{ location: { id: number } }>(
      client,
      'POST /api/locations',
      {},
      { name: 'Orchard' },
    );
    await hit(client, 'PATCH /api/locations/:id', { id: location.id }, { name: 'Old Orchard' });
    await hit(client, 'DELETE /api/locations/:id', { id: location.id });
    const { locations } = await hit<{ locations: Array<{ id: number; name: string }> }>(
      client,
      'GET /api/locations',
    );
    const north = locations.find((l) => l.name === 'Apiary North')!.id;

    const ids = await Promise.all(
      [1, 2, 3].map((n) =>
        createFile(t.server, userId, {
          original_name: `hive-${n}.png`,
          counts: counts({ bee: 10 * n, pollen: n, drone: 1 }),
          frames: frames([2, 3], { bee: 5 * n }),
        }),
      ),
    );
    const [first, second, third] = ids as [number, number, number];
    await hit(client, 'POST /api/get-uploaded-files-list/');
    await hit(client, 'GET /api/files/upload-facts', {}, undefined, `?ids=${ids.join(',')}`);
    await hit(client, 'GET /api/files/:id', { id: first });
    await hit(client, 'GET /api/files/:id/hive', { id: first });
    await hit(client, 'GET /api/files/:id/frames', { id: first });
    await hit(client, 'GET /api/files/:id/accuracy', { id: first });
    await hit(client, 'GET /api/hive-accuracy', {}, undefined, '?location=Apiary%20North');
    await hit(
      client,
      'POST /api/compute-groups',
      {},
      {
        group_one: [{ report_url: `/api/files/${first}/report.csv` }],
        group_two: [{ report_url: `/api/files/${second}/report.csv` }],
      },
    );
    await hit(client, 'DELETE /api/files/:id', { id: third });

    const line = {
      kind: 'line',
      points: [
        [0, 0.5],
        [1, 0.5],
      ],
    };
    await hit(client, 'PUT /api/locations/:id/entrance', { id: north }, { entrance: line });
    await hit(client, 'GET /api/locations/:id/entrance', { id: north });
    await hit(client, 'GET /api/locations/:id/entrance/proposal', { id: north });
    await hit(client, 'GET /api/locations/:id/history', { id: north });
    await hit(client, 'GET /api/locations/:id/accuracy', { id: north });
    await hit(client, 'DELETE /api/locations/:id/entrance', { id: north });
    await hit(client, 'POST /api/logout');
  });

  run('an administrator’s users, plans, exports and search', async () => {
    const admin = await signedInUser(t.server, { role: 'ADMIN' });
    const user = await signedInUser(t.server);
    await createFile(t.server, user.id);
    await hit(admin.client, 'POST /api/users-and-products');
    const granted = await hit<{ id: number }>(
      admin.client,
      'POST /api/admin/users/:id/products',
      { id: user.id },
      { product_name: 'Researcher', end_date: '2099-12-31' },
    );
    await hit(
      admin.client,
      'POST /api/admin/products/:id/extend',
      { id: granted.id },
      { end_date: '2100-06-30' },
    );
    await hit(admin.client, 'POST /api/admin/products/:id/revoke', { id: granted.id });
    await hit(admin.client, 'POST /api/get-all-users');
    await hit(
      admin.client,
      'POST /api/search-results-files',
      {},
      {
        start_date: '2000-01-01',
        end_date: '2100-01-01',
      },
    );
  });
});

describe('the routes checked', () => {
  afterAll(() => checked.clear());
  it.skipIf(!DB_KINDS.some(dbAvailable))('are every JSON route of the contract', () => {
    const elsewhere = Object.keys(ELSEWHERE);
    expect(elsewhere.filter((key) => checked.has(key))).toEqual([]);
    expect([...checked, ...elsewhere].sort()).toEqual([...JSON_ROUTES].sort());
  });
});

/**
 * Issue 54 item 8 over real HTTP on SQLite and PostgreSQL: an entrance polygon must be simple
 * (no two edges meet but consecutive ones at their corner) and enclose an area; a crossed one is
 * a 400 whose `fields.entrance` names the edges that meet. A polygon saved before the rule is
 * still the location's entrance until its owner redraws it.
 */
import { describe, expect, it } from 'vitest';
import { signedInUser } from '../support/factories/index.ts';
import { DB_KINDS, dbAvailable, useTestServer } from '../support/server.ts';
import type { TestClient } from '../support/server.ts';

interface ErrorBody {
  error: { code: string; message: string; fields?: Record<string, string> };
}

const BOW_TIE = [
  [0, 0],
  [1, 1],
  [1, 0.2],
  [0, 1],
];

async function entranceUrl(client: TestClient): Promise<{ id: number; url: string }> {
  const { locations } = (await client.get('/api/locations')).json<{
    locations: Array<{ id: number }>;
  }>();
  const id = locations[0]!.id;
  return { id, url: `/api/locations/${id}/entrance` };
}

describe.each(DB_KINDS)('entrance shape on %s', (kind) => {
  const t = useTestServer(kind);
  const run = it.skipIf(!dbAvailable(kind));

  run('refuses a polygon that crosses itself or encloses no area, naming the problem', async () => {
    const { client } = await signedInUser(t.server, { locations: ['Warehouse 4'] });
    const { url } = await entranceUrl(client);
    const cases: Array<[number[][], string]> = [
      [
        BOW_TIE,
        'The entrance polygon crosses itself: the edge from (0, 0) to (1, 1) meets the edge from (1, 0.2) to (0, 1).',
      ],
      [
        [[0.2, 0.2], [0.8, 0.2], [0.5, 0.2], [0.5, 0.9]],
        'The entrance polygon crosses itself: it turns back on its own edge at (0.8, 0.2).',
      ],
      [
        [[0.5, 0.5], [0.5005, 0.5], [0.5, 0.5005]],
        'The entrance polygon is flat: it encloses almost no area.',
      ],
    ]; // prettier-ignore
    for (const [points, message] of cases) {
      const res = await client.request('PUT', url, {
        json: { entrance: { kind: 'polygon', points } },
      });
      expect(res.status, JSON.stringify(points)).toBe(400);
      const body = res.json<ErrorBody>();
      expect(body.error.code).toBe('VALIDATION');
      expect(body.error.fields?.entrance).toBe(message);
    }
    expect((await client.get(url)).json<{ entrance: unknown }>().entrance).toBeNull();

    const simple = [[0.2, 0.2], [0.8, 0.2], [0.8, 0.6], [0.5, 0.3], [0.2, 0.6]]; // prettier-ignore
    const saved = await client.request('PUT', url, {
      json: { entrance: { kind: 'polygon', points: simple } },
    });
    expect(saved.status, saved.text).toBe(200);
    expect(
      (await client.get(url)).json<{ entrance: { points: unknown } }>().entrance.points,
    ).toEqual(simple);
  });

  run('a crossed polygon saved before the rule is still read back as the entrance', async () => {
    const { client } = await signedInUser(t.server, { locations: ['Orchard'] });
    const { id, url } = await entranceUrl(client);
    await t.server.app
      .db('locations')
      .where('id', id)
      .update({ entrance_json: JSON.stringify({ kind: 'polygon', points: BOW_TIE }) });
    const got = (await client.get(url)).json<{ entrance: { kind: string; points: unknown } }>();
    expect(got.entrance).toEqual({ kind: 'polygon', points: BOW_TIE });
  });
});

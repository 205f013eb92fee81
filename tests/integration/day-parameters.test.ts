/**
 * Issue 54 item 6 over real HTTP on SQLite and PostgreSQL: a day no calendar has (month 13 or
 * 00, day 32, 30 February) is a 400 naming the field and the reason, on the location history,
 * its CSV and the admin file search; it used to be a 500 ("Invalid time value").
 */
import { describe, expect, it } from 'vitest';
import { signedInUser } from '../support/factories/index.ts';
import { DB_KINDS, dbAvailable, useTestServer } from '../support/server.ts';

interface ErrorBody {
  error: { code: string; message: string; fields?: Record<string, string> };
}

const IMPOSSIBLE: Array<[string, 'from' | 'to']> = [
  ['from=2026-13-01', 'from'],
  ['to=2026-12-32', 'to'],
  ['from=2026-00-01', 'from'],
  ['to=2026-02-30', 'to'],
  ['from=2026-06-01&to=2026-99-99', 'to'],
];

describe.each(DB_KINDS)('impossible days on %s', (kind) => {
  const t = useTestServer(kind);
  const run = it.skipIf(!dbAvailable(kind));

  run('the location history and its CSV answer 400 naming the day', async () => {
    const { client } = await signedInUser(t.server, { locations: ['Warehouse 4'] });
    const loc = (await client.get('/api/locations')).json<{ locations: Array<{ id: number }> }>()
      .locations[0]!.id;
    for (const path of ['history', 'history.csv']) {
      for (const [query, field] of IMPOSSIBLE) {
        const res = await client.get(`/api/locations/${loc}/${path}?${query}`);
        expect(res.status, `${path}?${query}: ${res.text}`).toBe(400);
        const body = res.json<ErrorBody>();
        expect(body.error.code).toBe('VALIDATION');
        expect(body.error.fields?.[field]).toBe(
          `The ${field === 'from' ? 'start' : 'end'} date must be a real day written YYYY-MM-DD.`,
        );
      }
      const leap = await client.get(`/api/locations/${loc}/${path}?from=2028-02-29&to=2028-03-01`);
      expect(leap.status, path).toBe(200);
    }
  });

  run('the admin file search answers 400 with the reason for each day', async () => {
    const { client } = await signedInUser(t.server, { role: 'ADMIN', locations: [] });
    const search = (start_date: string, end_date: string) =>
      client.post('/api/search-results-files', { start_date, end_date });
    const bad = await search('2026-13-01', '2026-12-32');
    expect(bad.status).toBe(400);
    expect(bad.json<ErrorBody>().error.fields).toEqual({
      start_date: 'The start date must be a real day written YYYY-MM-DD.',
      end_date: 'The end date must be a real day written YYYY-MM-DD.',
    });
    const missing = await search('', '2026-02-30');
    expect(missing.json<ErrorBody>().error.fields).toEqual({
      start_date: 'Choose a start and end date to run the search.',
      end_date: 'The end date must be a real day written YYYY-MM-DD.',
    });
    expect((await search('2026-00-01', '2026-01-01')).status).toBe(400);
    expect((await search('2028-02-29', '2028-03-01')).status).toBe(200);
  });
});

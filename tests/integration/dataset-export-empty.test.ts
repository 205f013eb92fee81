// The console's training export with nothing to export (issue 57): a 409 that says so, never an
// empty tar, on SQLite and PostgreSQL.
import { describe, expect, it } from 'vitest';
import { signedInUser } from '../support/factories/index.ts';
import { DB_KINDS, dbAvailable, useTestServer } from '../support/server.ts';

describe.each(DB_KINDS)('training export with nothing consented on %s', (kind) => {
  describe.skipIf(!dbAvailable(kind))('', () => {
    const t = useTestServer(kind);

    it('answers 409 "No consented corrected frames yet" instead of an empty tar', async () => {
      const { client: admin } = await signedInUser(t.server, { role: 'ADMIN', locations: [] });
      for (const [query, message] of [
        ['', 'No consented corrected frames yet'],
        ['?reviewed_only=1', 'No reviewed consented corrected frames yet'],
      ] as const) {
        const res = await admin.get(`/api/admin/corrections-dataset.tar${query}`);
        expect(res.status, query).toBe(409);
        expect(res.headers.get('content-type')).toMatch(/^application\/json/);
        expect(res.json<{ message: string; error: { code: string } }>()).toMatchObject({
          message,
          error: { code: 'CONFLICT' },
        });
      }
    });
  });
});

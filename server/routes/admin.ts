/**
 * Admin-only users overview and its CSV export (spec 7, decisions.md 1b). The download takes a
 * file name from an allow-list of files this module generates, never a path.
 */
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { Router } from '@koa/router';
import { writeCsv } from '../../engine/vocabulary.ts';
import type { AppContext } from '../context.ts';
import { NotFound, ValidationError } from '../errors.ts';
import { usersWithProducts } from '../users/users-repository.ts';
import { isLookalikeEmail } from '../users/unicode.ts';

export const USERS_CSV = 'all_users.csv';
/** The only names download-csv serves, each mapped to its file under DATA_DIR/exports. */
const DOWNLOADABLE = new Set([USERS_CSV]);

export function exportsDir(dataDir: string): string {
  return path.join(dataDir, 'exports');
}

export function adminRoutes(app: AppContext): Router {
  const router = new Router();

  // Rows [email, start_date, end_date, product_name, lookalike_email, name, role, user_id,
  // product_id]; users without a product appear once with empty product fields (product_id null)
  // so the overview lists every account. The spec's four fields come first, the rest appended:
  // lookalike_email is true for an address mixing scripts; the ids name the user and the grant
  // for the console's grant, extend and revoke (routes/admin-grants.ts).
  router.post('/api/users-and-products', app.requireAdmin, async (ctx) => {
    const rows = await usersWithProducts(app.db);
    ctx.body = rows.map((r) => [
      r.email,
      r.start_date ?? '',
      r.end_date ?? '',
      r.product_name ?? '',
      isLookalikeEmail(r.email),
      r.name,
      r.role,
      r.user_id,
      r.product_id ?? null,
    ]);
  });

  router.post('/api/get-all-users', app.requireAdmin, async (ctx) => {
    const rows = await usersWithProducts(app.db);
    const csv = writeCsv(
      [
        'email',
        'name',
        'role',
        'created_at',
        'product_name',
        'start_date',
        'end_date',
        'lookalike_email',
      ],
      rows.map((r) => [
        r.email,
        r.name,
        r.role,
        r.created_at,
        r.product_name,
        r.start_date,
        r.end_date,
        isLookalikeEmail(r.email),
      ]),
    );
    const dir = exportsDir(app.config.dataDir);
    await fsp.mkdir(dir, { recursive: true });
    // Write then rename, so a concurrent download never sees half a file.
    const tmp = path.join(dir, `.${USERS_CSV}.${process.pid}.${Date.now()}.tmp`);
    await fsp.writeFile(tmp, csv, 'utf8');
    await fsp.rename(tmp, path.join(dir, USERS_CSV));
    ctx.body = { file_name: USERS_CSV };
  });

  router.get('/api/download-csv', app.requireAdmin, async (ctx) => {
    const name = typeof ctx.query.file_name === 'string' ? ctx.query.file_name : '';
    if (!DOWNLOADABLE.has(name)) throw ValidationError.of({ file_name: 'Unknown export file' });
    const file = path.join(exportsDir(app.config.dataDir), name);
    const st = await fsp.stat(file).catch(() => null);
    if (!st?.isFile()) throw new NotFound('The export has not been generated yet');
    ctx.set('Content-Disposition', `attachment; filename="${name}"`);
    ctx.set('Cache-Control', 'no-store');
    ctx.type = 'text/csv; charset=utf-8';
    ctx.length = st.size;
    ctx.body = fs.createReadStream(file);
  });

  return router;
}

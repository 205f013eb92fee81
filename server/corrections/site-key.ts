/**
 * The installation's secret behind the training export's site hashes (issue 54). A site hash
 * tells training which frames come from the same hive without naming it; an unsalted sha256 of
 * the owner's id and the hive name could be reversed by hashing guesses (ids are small numbers,
 * hive names are words). Keyed with 32 random bytes that never leave the data folder, a hash
 * says nothing to whoever holds the export: only this installation can compute it.
 *
 * The key lives in DATA_DIR/site-hash.key (64 hex digits, mode 0600), created on first use and
 * read afterwards, so every export of this installation, the server's and `hivesight dataset
 * export`'s, names a hive alike, before and after restarts. Losing the file changes every site
 * hash of later exports (earlier ones keep theirs): back it up with the data folder.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { link, mkdir, readFile, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';

export const SITE_KEY_FILE = 'site-hash.key';

const KEY_TEXT = /^[0-9a-f]{64}$/;

async function readKey(file: string): Promise<Buffer | null> {
  let text: string;
  try {
    text = (await readFile(file, 'utf8')).trim();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
  // Never replaced silently: a new key would give every hive a new site in later exports.
  if (!KEY_TEXT.test(text))
    throw new Error(
      `${file} is not a site key (64 hex digits). Restore it from a backup of the data folder, or delete it to start new site hashes.`,
    );
  return Buffer.from(text, 'hex');
}

/** The data folder's site key, created (mode 0600) when it has none. */
export async function siteKey(dataDir: string): Promise<Buffer> {
  const file = path.join(dataDir, SITE_KEY_FILE);
  const existing = await readKey(file);
  if (existing) return existing;
  await mkdir(dataDir, { recursive: true });
  // Written whole under a private name, then linked into place: link fails if another process
  // (a server and the CLI) got there first, and no reader ever sees half a key.
  const tmp = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  await writeFile(tmp, `${randomBytes(32).toString('hex')}\n`, { mode: 0o600, flag: 'wx' });
  try {
    await link(tmp, file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  } finally {
    await unlink(tmp).catch(() => {});
  }
  const key = await readKey(file);
  if (!key) throw new Error(`${file} vanished while it was created`);
  return key;
}

/** The hashed site of a hive: HMAC-SHA256 of the owner and the hive name under the site key. */
export function siteHash(key: Buffer, userId: number, location: string): string {
  return createHmac('sha256', key)
    .update(`hivesight-site\n${userId}\n${location.trim().toLowerCase()}`)
    .digest('hex')
    .slice(0, 16);
}

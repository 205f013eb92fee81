/**
 * Users for a test, written straight into the test server's database (knex, no server modules),
 * then, where a test acts as one, signed in through the API. Defaults: a USER named "Test
 * Beekeeper" with the two hives `DEFAULT_LOCATIONS`, a unique e-mail and `TEST_PASSWORD`.
 */
import crypto from 'node:crypto';
import { promisify } from 'node:util';
import type { TestClient } from '../http-client.ts';
import type { TestServer } from '../server.ts';
import { signIn, TEST_PASSWORD, uniqueEmail } from '../server.ts';

export type Role = 'USER' | 'ADMIN';
export type ProductName = 'Bees Premium Subscription' | 'Researcher';

export const DEFAULT_LOCATIONS = ['Apiary North', 'Warehouse 4'];

export interface UserInput {
  email?: string;
  name?: string;
  password?: string;
  role?: Role;
  /** Hive locations in order (default `DEFAULT_LOCATIONS`; `[]` for none). */
  locations?: string[];
}

export interface TestUser {
  id: number;
  email: string;
  password: string;
  role: Role;
}

const scrypt = promisify(crypto.scrypt) as (
  password: string,
  salt: Buffer,
  keylen: number,
  options: crypto.ScryptOptions,
) => Promise<Buffer>;

/**
 * The stored form of a password as the server writes it (`scrypt$N$r$p$salt$hash`, the server's
 * own parameters), made once per password: scrypt is meant to be slow, and a suite makes
 * hundreds of users with the same password.
 */
const hashes = new Map<string, Promise<string>>();
function passwordHash(password: string): Promise<string> {
  let hash = hashes.get(password);
  if (!hash) {
    const salt = crypto.randomBytes(16);
    hash = scrypt(password, salt, 32, { N: 16384, r: 8, p: 1, maxmem: 64 * 1024 * 1024 }).then(
      (key) => `scrypt$16384$8$1$${salt.toString('base64')}$${key.toString('base64')}`,
    );
    hashes.set(password, hash);
  }
  return hash;
}

/** A user row (and its hives) in the server's database. */
export async function createUser(server: TestServer, input: UserInput = {}): Promise<TestUser> {
  const role = input.role ?? 'USER';
  const email = (input.email ?? uniqueEmail(role === 'ADMIN' ? 'admin' : 'user')).toLowerCase();
  const password = input.password ?? TEST_PASSWORD;
  const [inserted] = await server.app
    .db('users')
    .insert({
      email,
      name: input.name ?? 'Test Beekeeper',
      password_hash: await passwordHash(password),
      role,
      created_at: server.app.clock.now().toISOString(),
    })
    .returning<Array<{ id: number } | number>>('id');
  const id = Number(typeof inserted === 'object' ? inserted.id : inserted);
  const locations = input.locations ?? DEFAULT_LOCATIONS;
  if (locations.length > 0)
    await server.app
      .db('locations')
      .insert(locations.map((name, position) => ({ user_id: id, name, position })));
  return { id, email, password, role };
}

/** A new user and a client signed in as them (the sign-in must give the user's role). */
export async function signedInUser(
  server: TestServer,
  input: UserInput = {},
): Promise<TestUser & { client: TestClient }> {
  const user = await createUser(server, input);
  const client = server.client();
  const got = await signIn(client, user.email, user.password);
  if (got !== user.role) throw new Error(`expected role ${user.role}, got "${got}"`);
  return { ...user, client };
}

/** Grants a product to a user (dates YYYY-MM-DD; `from` defaults to 2000-01-01). */
export async function grantProduct(
  server: TestServer,
  email: string,
  product: ProductName,
  until: string,
  from = '2000-01-01',
): Promise<void> {
  const user = await server.app
    .db('users')
    .where({ email: email.trim().toLowerCase() })
    .first<{ id: number } | undefined>('id');
  if (!user) throw new Error(`no user ${email}`);
  await server.app.db('products').insert({
    user_id: user.id,
    product_name: product,
    start_date: from,
    end_date: until,
  });
}

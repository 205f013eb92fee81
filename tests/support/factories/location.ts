/** A hive location of a user, written straight into the test server's database, last in order. */
import type { TestServer } from '../server.ts';

export async function createLocation(
  server: TestServer,
  input: { userId: number; name?: string },
): Promise<{ id: number; name: string }> {
  const db = server.app.db;
  const name = input.name ?? `Hive ${Math.random().toString(36).slice(2, 8)}`;
  const last = (await db('locations')
    .where('user_id', input.userId)
    .max('position as position')
    .first()) as { position: number | string | null } | undefined;
  const position = last?.position == null ? 0 : Number(last.position) + 1;
  const [inserted] = await db('locations')
    .insert({ user_id: input.userId, name, position })
    .returning<Array<{ id: number } | number>>('id');
  return { id: Number(typeof inserted === 'object' ? inserted.id : inserted), name };
}

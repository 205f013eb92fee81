/**
 * The server's side of the API contract (contract/): requests parsed with the route table's
 * schemas, zod's problems turned into the one ValidationError, and answers typed by the table,
 * so that an answer that drifts from the contract fails type-checking here and in the console.
 */
import type { Context } from 'koa';
import type { z } from 'zod';
import type { Answer, CallableKey } from '../contract/client.ts';
import { ROUTES } from '../contract/routes.ts';
import { ValidationError } from './errors.ts';

/** `value` parsed with `schema`, or a ValidationError naming each bad field with its message. */
export function parseWith<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const fields: Record<string, string> = {};
  for (const issue of parsed.error.issues) {
    const field = issue.path.map(String).join('.') || 'request';
    fields[field] ??= issue.message;
  }
  throw ValidationError.of(fields);
}

/** Answers `body`, checked against the route's answer type, with the route's success status. */
export function answer<K extends CallableKey>(ctx: Context, key: K, body: Answer<K>): void {
  const status: number | undefined = (ROUTES[key] as { status?: number }).status;
  if (status !== undefined) ctx.status = status;
  ctx.body = body;
}

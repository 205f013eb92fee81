/**
 * Tests only (AppOptions.checkAnswers, set by tests/integration/server-helpers.ts): every success
 * a route answers is checked against its answer schema in the route table, so that each
 * integration and end-to-end test that reaches a route also checks the contract's word for it.
 * A field the schema lacks counts as a disagreement too (zod would drop it silently), so the
 * console's types cannot miss what the server sends. A disagreement is an Error: the error
 * middleware answers 500, the test that made the call fails, and stderr says why.
 */
import { isDeepStrictEqual } from 'node:util';
import type { Middleware } from 'koa';
import type { RouteSpec } from '../../contract/route.ts';
import { ROUTES } from '../../contract/routes.ts';

const SPECS: Record<string, RouteSpec | undefined> = ROUTES;

/** Why `body` (a JSON answer of `key` with `status`) breaks the route's contract, or null. */
export function answerProblem(key: string, status: number, body: unknown): string | null {
  const spec = SPECS[key];
  if (!spec || status < 200 || status > 299) return null;
  const schema = spec.answer;
  // A file (whole, or a range of it: 206): its bytes are not the contract's business.
  if (schema !== null && 'kind' in schema) return null;
  const expected = spec.status ?? 200;
  if (status !== expected) return `answered ${status}, the contract says ${expected}`;
  if (schema === null) return body == null ? null : 'answered a body, the contract says none';
  let sent: unknown;
  try {
    sent = asSent(body);
  } catch {
    return 'answered text that is not JSON';
  }
  const parsed = schema.safeParse(sent);
  if (!parsed.success)
    return parsed.error.issues
      .slice(0, 5)
      .map((i) => `${i.path.join('.') || '(answer)'}: ${i.message}`)
      .join('; ');
  // What zod kept is what the schema names: anything else the server sent is unmodelled.
  if (!isDeepStrictEqual(parsed.data, sent))
    return `fields the schema lacks: ${extraPaths(sent, parsed.data).slice(0, 5).join(', ')}`;
  return null;
}

/** The JSON a client reads: routes answer objects, or JSON text they composed (the records). */
function asSent(body: unknown): unknown {
  if (body === undefined || body === null) return body;
  return JSON.parse(typeof body === 'string' ? body : JSON.stringify(body)) as unknown;
}

/** The paths present in `sent` and absent from `kept`. */
function extraPaths(sent: unknown, kept: unknown, at = ''): string[] {
  if (Array.isArray(sent) && Array.isArray(kept))
    return sent.flatMap((v, i) => extraPaths(v, kept[i], `${at}[${i}]`));
  if (!sent || typeof sent !== 'object' || !kept || typeof kept !== 'object') return [];
  return Object.entries(sent).flatMap(([k, v]) =>
    k in kept
      ? extraPaths(v, (kept as Record<string, unknown>)[k], at ? `${at}.${k}` : k)
      : [at ? `${at}.${k}` : k],
  );
}

export function answerCheck(): Middleware {
  return async (ctx, next) => {
    await next();
    const route = (ctx as { _matchedRoute?: unknown })._matchedRoute;
    if (typeof route !== 'string') return;
    const key = `${ctx.method} ${route}`;
    const problem = answerProblem(key, ctx.status, ctx.body);
    if (!problem) return;
    const message = `The answer of ${key} breaks the contract: ${problem}`;
    // Tests log silently and see only the 500: say why where the developer looks.
    process.stderr.write(`[answer-check] ${message}\n`);
    throw new Error(message);
  };
}

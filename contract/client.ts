/**
 * The types a client derives from the route table, and the one URL builder. Type-only use of
 * zod: the console imports this module without bundling any schema.
 */
import type { z } from 'zod';
import type { FileAnswer } from './route.ts';
import type { RouteKey, Routes } from './routes.ts';

type Input<S> = S extends z.ZodType ? z.input<S> : never;

/** Routes that answer JSON (or nothing): the ones `call` serves; the others are links. */
export type CallableKey = {
  [K in RouteKey]: Routes[K]['answer'] extends FileAnswer ? never : K;
}[RouteKey];

/** Routes that answer plain text (the sign-in's role): `callText` serves them. */
export type TextKey = {
  [K in RouteKey]: Routes[K]['answer'] extends FileAnswer<'text/plain'> ? K : never;
}[RouteKey];

/** Routes that take a multipart form (the upload): `callForm` serves them. */
export type FormKey = {
  [K in RouteKey]: Routes[K] extends { form: z.ZodObject } ? K : never;
}[RouteKey];

/** A form route's text fields (its file goes separately, as `file_data`). */
export type FormFields<K extends FormKey> = Omit<Input<Routes[K]['form']>, 'file_data'>;

/** A route's answer as the server sends it. */
export type Answer<K extends RouteKey> = Routes[K]['answer'] extends z.ZodType
  ? z.output<Routes[K]['answer']>
  : null;

type ParamsPart<R> = R extends { params: infer P }
  ? { params: { [N in keyof Input<P>]: string | number } }
  : { params?: never };
type QueryPart<R> = R extends { query: infer Q } ? { query?: Input<Q> } : { query?: never };
type BodyPart<R> = R extends { body: infer B } ? { body: Input<B> } : { body?: never };

/** What a call sends: the path parameters, the query and the JSON body its route takes. */
export type RouteInput<K extends RouteKey> = ParamsPart<Routes[K]> &
  QueryPart<Routes[K]> &
  BodyPart<Routes[K]>;

/** True when a route needs no input at all, so `call(key)` may omit it. */
export type NoInput<K extends RouteKey> = object extends RouteInput<K> ? true : false;

/** `GET /api/files/:id` with `{ id: 7 }` -> `/api/files/7`, with the query appended. */
export function routeUrl(
  path: string,
  params: Record<string, string | number> = {},
  query: Record<string, string | number | boolean | null | undefined> = {},
): string {
  const filled = path.replace(/:([A-Za-z_]\w*)/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`The path ${path} needs its ${name}.`);
    return encodeURIComponent(String(value));
  });
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query))
    if (value !== undefined && value !== null && value !== '') search.set(key, String(value));
  const text = search.toString();
  return text ? `${filled}?${text}` : filled;
}

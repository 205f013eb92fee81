/** What one API route is: who may call it, what it takes and what it answers. */
import type { z } from 'zod';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
/** `public`: no session; `user`: signed in (else 401); `admin`: role ADMIN (else 403). */
export type Access = 'public' | 'user' | 'admin';

/** An answer that is a file (CSV, JPEG, media, tar) or plain text, not JSON. */
export interface FileAnswer<T extends string = string> {
  kind: 'file';
  contentType: T;
}
export const fileAnswer = <T extends string>(contentType: T): FileAnswer<T> => ({
  kind: 'file',
  contentType,
});

export interface RouteSpec {
  summary: string;
  access: Access;
  /** Path parameters (`:id`), as strings. */
  params?: z.ZodObject;
  query?: z.ZodType;
  /** A JSON body. */
  body?: z.ZodType;
  /** A multipart/form-data body (the upload): its text fields; the file is `file_data`. */
  form?: z.ZodObject;
  /** The status of a success (default 200). */
  status?: 200 | 201 | 202 | 204;
  /** JSON (a schema), a file, or nothing (204). */
  answer: z.ZodType | FileAnswer | null;
}

/** `'GET /api/files/:id'` -> method and Koa path. */
export function splitRouteKey(key: string): { method: Method; path: string } {
  const space = key.indexOf(' ');
  return { method: key.slice(0, space) as Method, path: key.slice(space + 1) };
}

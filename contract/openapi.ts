/**
 * The OpenAPI 3.1 document of the API, generated from the route table: each route's parameters,
 * body and answer, and the error body every route may answer. Served at GET /api/openapi.json.
 */
import { z } from 'zod';
import { ERROR_STATUS } from './errors.ts';
import type { RouteSpec } from './route.ts';
import { splitRouteKey } from './route.ts';
import { ROUTES } from './routes.ts';
import { errorBody } from './schemas/common.ts';

type JsonSchema = Record<string, unknown>;

const ACCESS_ERRORS: Record<RouteSpec['access'], number[]> = {
  public: [],
  user: [ERROR_STATUS.UNAUTHORIZED],
  admin: [ERROR_STATUS.UNAUTHORIZED, ERROR_STATUS.FORBIDDEN],
};

/** `/api/files/:id` -> `/api/files/{id}`. */
export const openApiPath = (koaPath: string) => koaPath.replace(/:([A-Za-z_]\w*)/g, '{$1}');

/** `GET /api/files/:id` -> `getApiFilesId`, unique per route. */
function operationId(method: string, path: string): string {
  const words = path
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w[0]!.toUpperCase() + w.slice(1));
  return method.toLowerCase() + words.join('');
}

/** One JSON Schema per schema; shared ones (with a `meta({ id })`) become components. */
class Schemas {
  readonly components: Record<string, JsonSchema> = {};

  convert(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
    const json = z.toJSONSchema(schema, {
      io,
      target: 'draft-2020-12',
      unrepresentable: 'any',
      cycles: 'ref',
      reused: 'inline',
    }) as JsonSchema & { $defs?: Record<string, JsonSchema> };
    const { $schema: _s, $defs, ...rest } = relocate(json) as typeof json;
    // Named schemas (meta id) come out as $defs: written once, under components. An input and
    // an output of one named schema are the same but for optional defaults, which none has.
    for (const [id, def] of Object.entries($defs ?? {})) this.components[id] ??= def;
    return rest;
  }
}

/** zod writes named schemas' references into its own $defs; OpenAPI keeps them as components. */
function relocate(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(relocate);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => [
      k,
      k === '$ref' && typeof v === 'string'
        ? v.replace(/^#\/\$defs\//, '#/components/schemas/')
        : relocate(v),
    ]),
  );
}

function parameters(spec: RouteSpec, schemas: Schemas) {
  const list: JsonSchema[] = [];
  const add = (where: 'path' | 'query', object: z.ZodType | undefined) => {
    if (!object) return;
    const json = schemas.convert(object, 'input') as {
      properties?: Record<string, JsonSchema>;
      required?: string[];
    };
    for (const [name, schema] of Object.entries(json.properties ?? {})) {
      const { description, ...rest } = schema as JsonSchema & { description?: string };
      list.push({
        name,
        in: where,
        required: where === 'path' || (json.required ?? []).includes(name),
        ...(description ? { description } : {}),
        schema: rest,
      });
    }
  };
  add('path', spec.params);
  add('query', spec.query);
  return list;
}

export function openApiDocument(version = '0.1.0') {
  const schemas = new Schemas();
  const errorRef = schemas.convert(errorBody, 'output');
  const errorResponse = (description: string) => ({
    description,
    content: { 'application/json': { schema: errorRef } },
  });
  const paths: Record<string, Record<string, unknown>> = {};
  for (const [key, raw] of Object.entries(ROUTES)) {
    const spec = raw as RouteSpec;
    const { method, path } = splitRouteKey(key);
    const status = String(spec.status ?? 200);
    const answer = spec.answer;
    const success =
      answer === null
        ? { description: 'Done; no content' }
        : 'kind' in answer
          ? {
              description: `A ${answer.contentType} file`,
              content: { [answer.contentType]: { schema: { type: 'string', format: 'binary' } } },
            }
          : {
              description: 'Success',
              content: { 'application/json': { schema: schemas.convert(answer, 'output') } },
            };
    const responses: Record<string, unknown> = { [status]: success };
    if (spec.params || spec.query || spec.body || spec.form)
      responses[String(ERROR_STATUS.VALIDATION)] = errorResponse('A field is invalid (fields)');
    for (const s of ACCESS_ERRORS[spec.access])
      responses[String(s)] = errorResponse(s === 401 ? 'Not signed in' : 'Administrators only');
    if (spec.params) responses['404'] = errorResponse('Not found, or not yours');
    responses.default = errorResponse('Any other error (see the error codes)');

    let requestBody: unknown;
    if (spec.body)
      requestBody = {
        required: true,
        content: { 'application/json': { schema: schemas.convert(spec.body, 'input') } },
      };
    else if (spec.form) {
      const form = schemas.convert(spec.form, 'input') as { properties?: JsonSchema };
      const fields = { ...(form.properties ?? {}) };
      fields.file_data = { type: 'string', format: 'binary' };
      requestBody = {
        required: true,
        content: { 'multipart/form-data': { schema: { ...form, properties: fields } } },
      };
    }
    (paths[openApiPath(path)] ??= {})[method.toLowerCase()] = {
      operationId: operationId(method, path),
      summary: spec.summary,
      tags: [path.split('/')[2] ?? 'api'],
      ...(spec.access === 'public' ? { security: [] } : {}),
      ...(spec.access === 'admin' ? { 'x-access': 'admin' } : {}),
      parameters: parameters(spec, schemas),
      ...(requestBody ? { requestBody } : {}),
      responses,
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'HiveSight API',
      version,
      description:
        'Hive-entrance analysis: upload pictures and videos, read counts, traffic and history. ' +
        'Every error answers the ErrorBody schema with a stable code.',
    },
    servers: [{ url: '/' }],
    security: [{ session: [] }],
    paths,
    components: {
      schemas: schemas.components,
      securitySchemes: {
        session: { type: 'apiKey', in: 'cookie', name: 'hs_session' },
      },
    },
  };
}

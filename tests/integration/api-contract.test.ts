/**
 * Issue 55: one contract for the API (contract/). Through a real server: the OpenAPI document at
 * /api/openapi.json is open, structurally OpenAPI 3.1, its schemas compile as JSON Schemas, and it
 * lists exactly the routes the Koa routers register; and the server's real answers (history,
 * traffic, file detail, errors) parse with the contract's schemas and validate against the
 * document's (which refuse unknown fields), on SQLite and PostgreSQL. The types the console
 * reads are the server's, checked by the compiler (the last test).
 */
import Ajv from 'ajv';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import type { Answer } from '../../contract/client.ts';
import { ERROR_MESSAGES } from '../../contract/errors.ts';
import type { openApiDocument } from '../../contract/openapi.ts';
import { openApiPath } from '../../contract/openapi.ts';
import type { RouteSpec } from '../../contract/route.ts';
import { splitRouteKey } from '../../contract/route.ts';
import { ROUTES } from '../../contract/routes.ts';
import { errorBody } from '../../contract/schemas/common.ts';
import { fileDetail as fileDetailSchema } from '../../contract/schemas/file-detail.ts';
import { historyAnswer } from '../../contract/schemas/history.ts';
import { ROUTE_MODULES } from '../../server/app.ts';
import type { StoredSummary } from '../../server/files/file-row.ts';
import type { fileDetail } from '../../server/files/file-detail.ts';
import type { HistoryPoint as ServerPoint } from '../../server/locations/history.ts';
import type { trafficDetail } from '../../server/locations/traffic.ts';
import type { HistoryPoint as ConsolePoint } from '../../console/src/lib/history.ts';
import type { FileTraffic as ConsoleTraffic } from '../../console/src/lib/traffic.ts';
import { counts, createFile, frames, signedInUser } from '../support/factories/index.ts';
import { DB_KINDS, dbAvailable, startTestServer } from '../support/server.ts';
import type { TestServer } from '../support/server.ts';

type Doc = ReturnType<typeof openApiDocument>;

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

/** The part of OpenAPI 3.1 the document uses, as the specification requires it. */
const schemaObject = z.union([z.record(z.string(), z.unknown()), z.boolean()]);
const mediaTypes = z.record(
  z.string().regex(/^[\w.+-]+\/[\w.+-]+$/),
  z.object({ schema: schemaObject }),
);
const operation = z.strictObject({
  operationId: z.string().regex(/^[A-Za-z0-9_]+$/),
  summary: z.string().min(1),
  tags: z.array(z.string()),
  security: z.array(z.record(z.string(), z.array(z.string()))).optional(),
  'x-access': z.literal('admin').optional(),
  parameters: z.array(
    z.strictObject({
      name: z.string().min(1),
      in: z.enum(['path', 'query', 'header', 'cookie']),
      required: z.boolean(),
      description: z.string().optional(),
      schema: schemaObject,
    }),
  ),
  requestBody: z.strictObject({ required: z.boolean(), content: mediaTypes }).optional(),
  responses: z.record(
    z.string().regex(/^([1-5]\d\d|default)$/),
    z.strictObject({ description: z.string().min(1), content: mediaTypes.optional() }),
  ),
});
const openApi31 = z.strictObject({
  openapi: z.string().regex(/^3\.1\.\d+$/),
  info: z.object({ title: z.string().min(1), version: z.string().min(1) }),
  servers: z.array(z.object({ url: z.string() })),
  security: z.array(z.record(z.string(), z.array(z.string()))),
  paths: z.record(
    z.string().regex(/^\/api\//),
    z.strictObject(Object.fromEntries(METHODS.map((m) => [m, operation.optional()]))),
  ),
  components: z.strictObject({
    schemas: z.record(z.string().regex(/^[A-Za-z0-9._-]+$/), schemaObject),
    securitySchemes: z.record(z.string(), z.object({ type: z.string() })),
  }),
});

/** Every `$ref` in the document, each of which must point inside it. */
function refsOf(value: unknown, out: string[] = []): string[] {
  if (Array.isArray(value)) value.forEach((v) => refsOf(v, out));
  else if (value && typeof value === 'object')
    for (const [k, v] of Object.entries(value)) {
      if (k === '$ref' && typeof v === 'string') out.push(v);
      else refsOf(v, out);
    }
  return out;
}

/** 2020-12's tuples (prefixItems) as draft-07 writes them (items as an array), for Ajv 6. */
function draft07(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(draft07);
  if (!value || typeof value !== 'object') return value;
  const { prefixItems, items, ...rest } = value as Record<string, unknown>;
  const out: Record<string, unknown> = Object.fromEntries(
    Object.entries(rest).map(([k, v]) => [k, draft07(v)]),
  );
  if (prefixItems) {
    out.items = draft07(prefixItems);
    out.additionalItems = items ?? true;
  } else if (items !== undefined) out.items = draft07(items);
  return out;
}

/** Ajv (draft-07 meta-schema; 2020-12's extra keywords are ignored) over the document's schemas. */
function validatorFor(doc: Doc) {
  const ajv = new Ajv({ unknownFormats: 'ignore', allErrors: true });
  const rebase = (schema: unknown) =>
    draft07(
      JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"openapi#/components/')),
    ) as object;
  ajv.addSchema({ $id: 'openapi', components: rebase(doc.components) }, 'openapi');
  return {
    ajv,
    rebase,
    /** The JSON answer schema of `method path` (Koa path) for `status`. */
    answerSchema(method: string, path: string, status = '200') {
      const op = doc.paths[openApiPath(path)]?.[method.toLowerCase()] as
        { responses: Record<string, { content?: Record<string, { schema: object }> }> } | undefined;
      const schema = op?.responses[status]?.content?.['application/json']?.schema;
      if (!schema) throw new Error(`no ${status} JSON answer for ${method} ${path}`);
      return ajv.compile(rebase(schema));
    },
  };
}

describe('the OpenAPI document', () => {
  let server: TestServer;
  let doc: Doc;
  beforeAll(async () => {
    server = await startTestServer('sqlite');
    const res = await server.client().get('/api/openapi.json');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/application\/json/);
    doc = res.json<Doc>();
  });
  afterAll(async () => {
    await server.stop();
  });

  it('is served without a session, structurally OpenAPI 3.1, every reference resolving', () => {
    const parsed = openApi31.safeParse(doc);
    expect(parsed.error?.issues ?? []).toEqual([]);
    const missing = refsOf(doc).filter((ref) => {
      const id = /^#\/components\/schemas\/(.+)$/.exec(ref)?.[1];
      return !id || !(id in doc.components.schemas);
    });
    expect(missing).toEqual([]);
    const ids = Object.values(doc.paths).flatMap((p) =>
      Object.values(p).map((op) => (op as { operationId: string }).operationId),
    );
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('gives each route its success, its errors and every path parameter it names', () => {
    const problems: string[] = [];
    for (const [key, raw] of Object.entries(ROUTES)) {
      const spec = raw as RouteSpec;
      const { method, path } = splitRouteKey(key);
      const op = doc.paths[openApiPath(path)]?.[method.toLowerCase()] as
        z.infer<typeof operation> | undefined;
      if (!op) {
        problems.push(`${key}: not documented`);
        continue;
      }
      const success = op.responses[String(spec.status ?? 200)];
      const file = spec.answer !== null && 'kind' in spec.answer ? spec.answer : null;
      // A JSON answer is documented as application/json; a file answer as its own media type
      // (a calibration file is application/json too, without a schema of the contract's).
      const media = file ? file.contentType : spec.answer === null ? null : 'application/json';
      if (!success) problems.push(`${key}: no ${spec.status ?? 200} answer`);
      else if (media !== null && !success.content?.[media])
        problems.push(`${key}: its success is not ${media} in the document`);
      else if (media === null && success.content)
        problems.push(`${key}: an empty answer documented with a body`);
      if (!op.responses.default) problems.push(`${key}: no default (error) answer`);
      if (spec.access !== 'public' && !op.responses['401']) problems.push(`${key}: no 401`);
      const named = [...path.matchAll(/:(\w+)/g)].map((m) => m[1]).sort();
      const declared = op.parameters.filter((p) => p.in === 'path');
      if (declared.some((p) => !p.required)) problems.push(`${key}: an optional path parameter`);
      const names = declared.map((p) => p.name).sort();
      if (JSON.stringify(names) !== JSON.stringify(named))
        problems.push(
          `${key}: path parameters ${names.join(',')}, the path names ${named.join(',')}`,
        );
    }
    expect(problems).toEqual([]);
  });

  it('holds JSON Schemas only: each one compiles', () => {
    const { ajv, rebase } = validatorFor(doc);
    const schemas: Array<[string, unknown]> = Object.entries(doc.components.schemas);
    for (const [path, item] of Object.entries(doc.paths))
      for (const [method, op] of Object.entries(item)) {
        const o = op as z.infer<typeof operation>;
        o.parameters.forEach((p) => schemas.push([`${method} ${path} ${p.name}`, p.schema]));
        for (const part of [o.requestBody, ...Object.values(o.responses)])
          for (const [type, media] of Object.entries(part?.content ?? {}))
            schemas.push([`${method} ${path} ${type}`, media.schema]);
      }
    expect(schemas.length).toBeGreaterThan(100);
    for (const [where, schema] of schemas) {
      expect(ajv.validateSchema(rebase(schema)), where).toBe(true);
      expect(() => ajv.compile(rebase(schema)), where).not.toThrow();
    }
  });

  it('lists exactly the routes the server’s routers register', () => {
    const registered = ROUTE_MODULES.flatMap((module) =>
      module(server.app).stack.flatMap((layer) =>
        layer.methods.filter((m) => m !== 'HEAD').map((m) => `${m} ${String(layer.path)}`),
      ),
    ).sort();
    expect(registered.length).toBeGreaterThanOrEqual(49);
    expect(Object.keys(ROUTES).sort()).toEqual(registered);
    const documented = Object.entries(doc.paths)
      .flatMap(([path, item]) => Object.keys(item).map((m) => `${m.toUpperCase()} ${path}`))
      .sort();
    expect(documented).toEqual(registered.map((r) => openApiPath(r)).sort());
  });
});

const LINE = {
  kind: 'line' as const,
  points: [[0, 0.5] as [number, number], [1, 0.5] as [number, number]],
};

function videoSummary(extra: Partial<StoredSummary> = {}): StoredSummary {
  return {
    durationS: 90,
    width: 640,
    height: 480,
    framesAnalysed: 450,
    sampleFps: 5,
    beeCoveragePct: 3,
    model: { name: 'hivesight-detector', version: '0.11.2', classes: ['bee', 'pollen', 'drone'] },
    timing: { decodeMs: 1, inferenceMs: 1, trackingMs: 1, totalMs: 3 },
    analysedAt: '2026-06-01T10:20:00.000Z',
    quality: {
      grade: 'uncertain',
      reason: 'The bees look smaller than the model learnt them.',
      signals: {
        sizeRatio: 0.6,
        zoom: 1,
        scoreRatio: 1.4,
        weakShare: 0.2,
        sharpness: 0.3,
        brightness: 0.5,
        clippedShare: 0,
        shortTrackShare: null,
      },
    },
    // Research data the answer must leave out: a field too many fails the document's schema.
    hornetTracks: [{ hits: [{ timeS: 1, score: 0.9 }] }],
    traffic: {
      entrance: LINE,
      beesIn: 2,
      beesOut: 1,
      netFlow: 1,
      loops: 0,
      inPerMinute: 1.3333,
      outPerMinute: 0.6667,
      byClass: { bee: { in: 2, out: 1, loops: 0 }, wasp: { in: 1, out: 0, loops: 0 } },
      events: [
        { kind: 'in', cls: 'bee', frame: 10, timeS: 2, trackIds: [1] },
        { kind: 'out', cls: 'bee', frame: 50, timeS: 70, trackIds: [2] },
        { kind: 'in', cls: 'wasp', frame: 60, timeS: 75, trackIds: [3] },
        { kind: 'in', cls: 'bee', frame: 80, timeS: 80, trackIds: [4] },
      ],
      // Tracked at 10 fps (an entrance rate, experiment 016), its density the benchmark's busy band.
      sampleFps: 10,
      density: { meanNear: 11, peakNear: 14 },
    },
    recordedAt: '2026-06-01T08:00:00.000Z',
    ...extra,
  };
}

describe.each(DB_KINDS)('the server’s answers follow the contract on %s', (kind) => {
  describe.skipIf(!dbAvailable(kind))('API', () => {
    let server: TestServer;
    let validator: ReturnType<typeof validatorFor>;
    beforeAll(async () => {
      server = await startTestServer(kind);
      validator = validatorFor((await server.client().get('/api/openapi.json')).json<Doc>());
    });
    afterAll(async () => {
      await server.stop();
    });

    /** Parses with the contract's schema and validates with the document's, unknown fields refused. */
    const follows = (method: string, path: string, body: unknown, schema: z.ZodType) => {
      expect(schema.safeParse(body).error?.issues ?? []).toEqual([]);
      const validate = validator.answerSchema(method, path);
      expect(validate(body), JSON.stringify(validate.errors)).toBe(true);
    };

    it('file detail and traffic: a processed video, a picture and a queued file', async () => {
      const { client, id } = await signedInUser(server);
      const video = await createFile(server, id, {
        original_name: 'entrance.mp4',
        kind: 'video',
        format: 'mp4',
        counts: counts({ bee: 5, pollen: 1 }),
        frames: frames([1, 2, 3], { bee: 2 }),
        summary_json: JSON.stringify(videoSummary()),
      });
      const picture = await createFile(server, id, { counts: counts({ bee: 2 }) });
      const queued = await createFile(server, id, { status: 'QUEUED', counts: null, frames: null });
      for (const file of [video, picture, queued]) {
        const res = await client.get(`/api/files/${file}`);
        expect(res.status).toBe(200);
        follows('GET', '/api/files/:id', res.json(), fileDetailSchema);
      }
      const detail = (await client.get(`/api/files/${video}`)).json<Answer<'GET /api/files/:id'>>();
      expect(detail.traffic?.per_minute.map((m) => [m.in, m.out])).toEqual([
        [1, 0],
        [1, 1],
      ]);
      // The rate the passages were tracked at, and the benchmark read at it.
      expect(detail.traffic?.sample_fps).toBe(10);
      expect(detail.traffic?.confidence?.sample_fps).toBe(10);
      // Wasps are research data: not on this owner's plan.
      expect(detail.traffic?.events.map((e) => e.cls)).toEqual(['bee', 'bee', 'bee']);
    });

    it('history: points with and without traffic, and a range', async () => {
      const { client, id } = await signedInUser(server);
      await createFile(server, id, {
        kind: 'video',
        format: 'mp4',
        summary_json: JSON.stringify(videoSummary()),
      });
      await createFile(server, id, {
        summary_json: JSON.stringify(videoSummary({ durationS: 0, traffic: undefined })),
      });
      const list = (await client.get('/api/locations')).json<Answer<'GET /api/locations'>>();
      const loc = list.locations.find((l) => l.name === 'Apiary North')!.id;
      for (const query of ['', '?from=2026-01-01&to=2030-12-31&tz=Europe%2FParis']) {
        const res = await client.get(`/api/locations/${loc}/history${query}`);
        expect(res.status).toBe(200);
        follows('GET', '/api/locations/:id/history', res.json(), historyAnswer);
      }
      const answer = (await client.get(`/api/locations/${loc}/history`)).json<
        Answer<'GET /api/locations/:id/history'>
      >();
      expect(answer.points.map((p) => p.bees_in)).toEqual([2, null]);
    });

    it('errors: one body with the contract’s code, its fields and its message', async () => {
      const { client } = await signedInUser(server);
      const list = (await client.get('/api/locations')).json<Answer<'GET /api/locations'>>();
      const loc = list.locations[0]!.id;
      const bad = await client.get(
        `/api/locations/${loc}/history?from=2026-02-30&tz=Mars%2FOlympus`,
      );
      expect(bad.status).toBe(400);
      const body = errorBody.parse(bad.json());
      expect(body.error.code).toBe('VALIDATION');
      expect(body.error.fields).toEqual({
        from: 'The start date must be a real day written YYYY-MM-DD.',
        tz: 'The time zone must be an IANA name, such as Europe/Paris.',
      });
      const forbidden = await client.post('/api/get-all-users');
      expect(forbidden.status).toBe(403);
      expect(errorBody.parse(forbidden.json()).error).toEqual({
        code: 'FORBIDDEN',
        message: ERROR_MESSAGES.FORBIDDEN,
      });
      const signedOut = errorBody.parse((await server.client().get('/api/me')).json());
      expect(signedOut.error.code).toBe('UNAUTHORIZED');
    });
  });
});

describe('one set of types', () => {
  it('the console reads the server’s answer types, not copies of them', () => {
    // Checked by tsc (npm run typecheck): a field renamed on one side fails to compile.
    expectTypeOf<ReturnType<typeof fileDetail>>().toEqualTypeOf<Answer<'GET /api/files/:id'>>();
    expectTypeOf<ConsolePoint>().toEqualTypeOf<ServerPoint>();
    expectTypeOf<ConsoleTraffic>().toEqualTypeOf<NonNullable<ReturnType<typeof trafficDetail>>>();
    expectTypeOf<ConsolePoint>().toEqualTypeOf<
      Answer<'GET /api/locations/:id/history'>['points'][number]
    >();
  });
});

/**
 * startServer(config): migrate, bootstrap the first admin, listen, start the in-process worker
 * (server/queue/worker.ts, when present) with the retention schedule, and shut down gracefully
 * on SIGTERM/SIGINT.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Config } from './config.ts';
import type { AppContext, ContextOverrides } from './context.ts';
import { closeDatabases, createAppContext } from './context.ts';
import { createApp } from './app.ts';
import type { AppOptions } from './app.ts';
import { migrateLatest } from './db.ts';
import { adminExists, createUser, findUserByEmail, setRole } from './users/users-repository.ts';
import { closeEngineFor } from './files/engine.ts';
import { startRetentionSchedule } from './files/retention-schedule.ts';

export interface RunningServer {
  app: AppContext;
  server: http.Server;
  /** Base URL the server actually listens on (port 0 resolved). */
  url: string;
  stop(): Promise<void>;
}

export interface Worker {
  stop(): Promise<void>;
}
type StartWorker = (app: AppContext) => Worker | Promise<Worker>;

/**
 * The background work of `hivesight serve` and `hivesight worker`: the analysis worker (when its
 * module exists, so the server runs before it lands) and, beside it, the retention schedule.
 */
export async function loadWorker(): Promise<StartWorker | null> {
  const file = new URL('./queue/worker.ts', import.meta.url);
  if (!fs.existsSync(file)) return null;
  const mod = (await import(file.href)) as { startWorker?: StartWorker };
  const startWorker = mod.startWorker;
  if (!startWorker) return null;
  return async (app) => {
    const worker = await startWorker(app);
    const retention = startRetentionSchedule(app);
    return {
      async stop() {
        await Promise.all([worker.stop(), retention.stop()]);
      },
    };
  };
}

/** Creates the first administrator from ADMIN_EMAIL/ADMIN_PASSWORD when no admin exists. */
export async function bootstrapAdmin(app: AppContext): Promise<void> {
  const { adminEmail, adminPassword } = app.config;
  if (!adminEmail || !adminPassword) return;
  if (await adminExists(app.db)) return;
  const existing = await findUserByEmail(app.db, adminEmail);
  if (existing) {
    await setRole(app.db, existing.id, 'ADMIN');
    app.logger.info('existing user promoted to administrator', { email: adminEmail });
  } else {
    await createUser(app.db, app.clock, {
      email: adminEmail,
      name: 'Administrator',
      password: adminPassword,
      role: 'ADMIN',
    });
    app.logger.info('first administrator created', { email: adminEmail });
  }
}

export async function startServer(
  config: Config,
  opts: ContextOverrides & AppOptions & { worker?: boolean; handleSignals?: boolean } = {},
): Promise<RunningServer> {
  fs.mkdirSync(config.dataDir, { recursive: true });
  const app = createAppContext(config, opts);
  await migrateLatest(app.db);
  await bootstrapAdmin(app);
  const koa = createApp(app, opts);
  const handler = koa.callback();
  const server = http.createServer((req, res) => {
    void handler(req, res);
  });
  server.requestTimeout = 0; // uploads of large videos may take a while; Koa routes bound their own work
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const host = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host;
  const url = `http://${host}:${port}`;

  let worker: Worker | null = null;
  if (opts.worker !== false && config.workerConcurrency > 0) {
    const startWorker = await loadWorker();
    if (startWorker) worker = await startWorker(app);
  }
  app.logger.info('hivesight listening', {
    url,
    publicUrl: config.publicUrl,
    database: config.databaseUrl ? 'postgres' : 'sqlite',
  });

  let stopping: Promise<void> | null = null;
  const stop = (): Promise<void> => {
    stopping ??= (async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      });
      await worker?.stop();
      await closeEngineFor(app);
      app.mailer.close();
      await closeDatabases(app);
    })();
    return stopping;
  };
  if (opts.handleSignals) {
    const onSignal = (signal: string): void => {
      app.logger.info('shutting down', { signal });
      const force = setTimeout(() => process.exit(1), 30_000);
      force.unref();
      stop().then(
        () => process.exit(0),
        (err: unknown) => {
          app.logger.error('shutdown failed', { error: String(err) });
          process.exit(1);
        },
      );
    };
    process.once('SIGTERM', onSignal);
    process.once('SIGINT', onSignal);
  }
  return { app, server, url, stop };
}

/**
 * Server-side CLI commands: `serve`, `worker`, `migrate`, `users create|grant|list`.
 * Options are bound to the environment (--port -> PORT, ...) and the configuration is then read
 * once through loadConfig, exactly as the server reads it. Server modules (the database, and the
 * HTTP server and worker which pull in the engine) are imported only by the commands that run
 * them, so that --help and the analysis commands do not load them.
 */
import type { Command } from 'commander';
import type { Config } from '../../../server/config.ts';
import type { Db } from '../../../server/db.ts';
import { PRODUCT_NAMES, isProductName } from '../../../server/users/plans.ts';

/** The server modules the commands use, loaded by the command that runs (not for --help). */
async function serverModules() {
  const [config, db, clock, repo] = await Promise.all([
    import('../../../server/config.ts'),
    import('../../../server/db.ts'),
    import('../../../server/clock.ts'),
    import('../../../server/users/users-repository.ts'),
  ]);
  return { ...config, ...db, ...clock, ...repo };
}

interface DbOptions {
  dataDir?: string;
  databaseUrl?: string;
}

async function bindEnv(opts: DbOptions & { port?: string }): Promise<Config> {
  const { ConfigError, loadConfig } = await serverModules();
  if (opts.port !== undefined) process.env.PORT = opts.port;
  if (opts.dataDir !== undefined) process.env.DATA_DIR = opts.dataDir;
  if (opts.databaseUrl !== undefined) process.env.DATABASE_URL = opts.databaseUrl;
  try {
    return loadConfig(process.env);
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(2);
    }
    throw err;
  }
}

/** Runs `fn` against a migrated database, then closes it. */
async function withDb<T>(opts: DbOptions, fn: (db: Db) => Promise<T>): Promise<T> {
  const { createDb, migrateLatest } = await serverModules();
  const config = await bindEnv(opts);
  const db = createDb({ databaseUrl: config.databaseUrl, sqliteFile: config.sqliteFile });
  try {
    await migrateLatest(db);
    return await fn(db);
  } finally {
    await db.destroy();
  }
}

const DATE_RE = /^\d{4}-\d{2}-\d{2}$/;
function isDate(s: string): boolean {
  return (
    DATE_RE.test(s) &&
    !Number.isNaN(Date.parse(`${s}T00:00:00Z`)) &&
    new Date(`${s}T00:00:00Z`).toISOString().startsWith(s)
  );
}

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

function dbOptions(cmd: Command): Command {
  return cmd
    .option('--data-dir <dir>', 'data folder (DATA_DIR; SQLite database and media)')
    .option(
      '--database-url <url>',
      'postgres://... (DATABASE_URL; default SQLite in the data folder)',
    );
}

export function registerServerCommands(program: Command): void {
  dbOptions(
    program
      .command('serve')
      .description('serve the API and the console, and run the analysis worker in-process')
      .option('--port <port>', 'HTTP port (PORT, default 8000)'),
  ).action(async (opts: DbOptions & { port?: string }) => {
    const config = await bindEnv(opts);
    const { startServer } = await import('../../../server/server.ts');
    await startServer(config, { handleSignals: true });
  });

  dbOptions(
    program
      .command('worker')
      .description('run only the analysis worker against the database (scale-out)'),
  ).action(async (opts: DbOptions) => {
    const config = await bindEnv(opts);
    const { loadWorker } = await import('../../../server/server.ts');
    const { closeDatabases, createAppContext } = await import('../../../server/context.ts');
    const { migrateLatest } = await serverModules();
    const startWorker = await loadWorker();
    if (!startWorker)
      fail('The analysis worker is not available in this build (server/queue/worker.ts missing).');
    const app = createAppContext(config);
    await migrateLatest(app.db);
    const worker = await startWorker(app);
    app.logger.info('worker started', { concurrency: config.workerConcurrency });
    const stop = (signal: string): void => {
      app.logger.info('worker stopping', { signal });
      worker
        .stop()
        .then(async () => {
          app.mailer.close();
          await closeDatabases(app);
          process.exit(0);
        })
        .catch((err: unknown) => {
          console.error(err);
          process.exit(1);
        });
    };
    process.once('SIGTERM', stop);
    process.once('SIGINT', stop);
  });

  dbOptions(
    program
      .command('migrate')
      .description('bring the database schema up to date (or roll back the last batch)')
      .option('--rollback', 'roll back the last batch of migrations'),
  ).action(async (opts: DbOptions & { rollback?: boolean }) => {
    const config = await bindEnv(opts);
    const { createDb, migrateLatest, migrateRollback } = await serverModules();
    const db = createDb({ databaseUrl: config.databaseUrl, sqliteFile: config.sqliteFile });
    try {
      const names = opts.rollback ? await migrateRollback(db) : await migrateLatest(db);
      const verb = opts.rollback ? 'rolled back' : 'applied';
      console.log(names.length === 0 ? `nothing to do` : `${verb}:\n  ${names.join('\n  ')}`);
    } finally {
      await db.destroy();
    }
  });

  const users = program.command('users').description('manage accounts and products');

  dbOptions(
    users
      .command('create <email>')
      .description('create an account (password from --password or HIVESIGHT_PASSWORD)')
      .requiredOption('--name <name>', 'display name')
      .option(
        '--password <password>',
        'password (at least 8 characters); default $HIVESIGHT_PASSWORD',
      )
      .option('--admin', 'make the account an administrator'),
  ).action(
    async (
      email: string,
      opts: DbOptions & { name: string; password?: string; admin?: boolean },
    ) => {
      const { EMAIL_RE, createUser, systemClock } = await serverModules();
      const password = opts.password ?? process.env.HIVESIGHT_PASSWORD ?? '';
      if (!EMAIL_RE.test(email)) fail(`Invalid email: ${email}`);
      if (password.length < 8)
        fail('Password must be at least 8 characters (--password or HIVESIGHT_PASSWORD)');
      if (!opts.name.trim()) fail('Name is required');
      await withDb(opts, async (db) => {
        const user = await createUser(db, systemClock, {
          email,
          name: opts.name,
          password,
          role: opts.admin ? 'ADMIN' : 'USER',
        });
        console.log(`created ${user.role} ${user.email} (id ${user.id})`);
      }).catch((err: unknown) => fail(err instanceof Error ? err.message : String(err)));
    },
  );

  dbOptions(
    users
      .command('grant <email> <product>')
      .description(`grant a product: ${PRODUCT_NAMES.map((p) => `"${p}"`).join(' or ')}`)
      .requiredOption('--until <date>', 'last day of the subscription (YYYY-MM-DD)')
      .option('--from <date>', 'first day (YYYY-MM-DD, default today)'),
  ).action(
    async (email: string, product: string, opts: DbOptions & { until: string; from?: string }) => {
      if (!isProductName(product))
        fail(`Unknown product "${product}"; expected one of: ${PRODUCT_NAMES.join(', ')}`);
      const from = opts.from ?? new Date().toISOString().slice(0, 10);
      if (!isDate(opts.until)) fail(`--until must be a date YYYY-MM-DD (got "${opts.until}")`);
      if (!isDate(from)) fail(`--from must be a date YYYY-MM-DD (got "${from}")`);
      if (from > opts.until) fail('--from must not be after --until');
      const { findUserByEmail, grantProduct } = await serverModules();
      await withDb(opts, async (db) => {
        const user = await findUserByEmail(db, email);
        if (!user) fail(`No account with email ${email}`);
        await grantProduct(db, user.id, product, from, opts.until);
        console.log(`granted ${product} to ${user.email} from ${from} until ${opts.until}`);
      });
    },
  );

  dbOptions(users.command('list').description('list accounts with their products')).action(
    async (opts: DbOptions) => {
      const { usersWithProducts } = await serverModules();
      await withDb(opts, async (db) => {
        const rows = await usersWithProducts(db);
        console.log(['email', 'name', 'role', 'product', 'start', 'end'].join('\t'));
        for (const r of rows) {
          console.log(
            [
              r.email,
              r.name,
              r.role,
              r.product_name ?? '-',
              r.start_date ?? '',
              r.end_date ?? '',
            ].join('\t'),
          );
        }
      });
    },
  );
}

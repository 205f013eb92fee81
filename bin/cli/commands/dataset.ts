/**
 * `hivesight dataset export --out DIR [--reviewed-only]`: writes consenting users' corrected
 * frames as a YOLO dataset (server/corrections/export.ts), for `hivesight eval DIR` and
 * `training/train.py --extra DIR`. Run where the server's database and DATA_DIR are (the same
 * --data-dir / --database-url as `hivesight users`): access to them is the administrator's.
 * Server modules load only when the command runs.
 */
import path from 'node:path';
import type { Command } from 'commander';
import { UserError } from '../errors.ts';

interface ExportFlags {
  out: string;
  reviewedOnly?: boolean;
  dataDir?: string;
  databaseUrl?: string;
}

export function registerDatasetCommand(program: Command): void {
  const dataset = program
    .command('dataset')
    .description('training data from users\u2019 corrected frames');
  dataset
    .command('export')
    .description(
      'write consenting users\u2019 corrected frames as a YOLO dataset (images/, labels/, classes.txt, manifest.json)',
    )
    .requiredOption('--out <dir>', 'a new or empty folder to write the dataset into')
    .option(
      '--reviewed-only',
      'only frames corrected or checked by an administrator or a second user',
    )
    .option('--data-dir <dir>', 'data folder (DATA_DIR; SQLite database and stills)')
    .option(
      '--database-url <url>',
      'postgres://... (DATABASE_URL; default SQLite in the data folder)',
    )
    .action(async (flags: ExportFlags) => {
      if (flags.dataDir !== undefined) process.env.DATA_DIR = flags.dataDir;
      if (flags.databaseUrl !== undefined) process.env.DATABASE_URL = flags.databaseUrl;
      const [{ loadConfig }, { createDb, migrateLatest }, exporter] = await Promise.all([
        import('../../../server/config.ts'),
        import('../../../server/db.ts'),
        import('../../../server/corrections/export.ts'),
      ]);
      const config = loadConfig(process.env);
      const db = createDb({ databaseUrl: config.databaseUrl, sqliteFile: config.sqliteFile });
      try {
        await migrateLatest(db);
        const outDir = path.resolve(flags.out);
        const { manifest, skipped } = await exporter
          .exportDataset(db, {
            dataDir: config.dataDir,
            outDir,
            reviewedOnly: flags.reviewedOnly ?? false,
            now: new Date(),
          })
          .catch((err: unknown) => {
            if (err instanceof exporter.ExportFolderNotEmpty)
              throw new UserError(err.message, 'Name a new folder with --out.');
            throw err;
          });
        const n = manifest.frames.length;
        console.log(
          `Wrote ${n} corrected frame${n === 1 ? '' : 's'} from ${manifest.sites} site${manifest.sites === 1 ? '' : 's'} to ${outDir}` +
            (flags.reviewedOnly ? ' (reviewed frames only)' : '') +
            '.',
        );
        if (skipped > 0)
          console.log(`Left out ${skipped} frame(s) whose picture is no longer kept.`);
        if (n > 0) console.log(`Score the shipped model on it: hivesight eval ${outDir}`);
      } finally {
        await db.destroy();
      }
    });
}

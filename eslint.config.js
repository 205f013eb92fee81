// Lint with type information so that floating promises (chokidar, ffmpeg, Koa) are errors.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';

const ENGINE_ENTRIES = {
  regex: '(^|/)engine/(?!(index|vocabulary)\\.ts$)',
  message: 'Import the engine from engine/index.ts or engine/vocabulary.ts.',
};

const LAB = {
  regex: '(^|/)lab/',
  message: 'The product does not import the research harness (lab/).',
};

/** Repositories alone write SQL: everyone else names the handle by server/db.ts's types. */
const KNEX = {
  name: 'knex',
  message:
    'Only repositories (server/**/*-repository.ts) and server/db.ts use Knex: call a repository, and name the handle Db / DbOrTx / Tx from server/db.ts.',
};

export default tseslint.config(
  {
    ignores: [
      'node_modules/',
      'dist/',
      'data/',
      'coverage/',
      '.venv/',
      'training/checkpoints/',
      'training/runs/',
      'tmp/',
      'bench-out/',
      'screenshots/',
      'bin/hivesight.mjs',
      'bin/run-ts.mjs',
      'bin/build-cli.mjs',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': [
        'error',
        { checksVoidReturn: { attributes: false } },
      ],
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    // Outside engine/ the engine has two entries: index.ts (the engine, with onnxruntime) and
    // vocabulary.ts (types, errors, report helpers). Deep imports bypass both.
    files: ['bin/**', 'server/**', 'console/**', 'tests/**', 'migrations/**', 'fixtures/**'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [ENGINE_ENTRIES] }],
      'no-restricted-syntax': [
        'error',
        {
          selector: 'ImportExpression[source.value=/(^|\\/)engine\\/(?!(index|vocabulary)\\.ts$)/]',
          message: ENGINE_ENTRIES.message,
        },
      ],
    },
  },
  {
    // The research harness (lab/) serves tests and benchmarks; the product never imports it.
    files: ['engine/**', 'bin/**', 'server/**', 'console/**'],
    ignores: ['**/*.test.ts', '**/*.test.tsx'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [ENGINE_ENTRIES, LAB],
        },
      ],
    },
  },
  {
    // The same, and no Knex outside the repositories and server/db.ts (tests may set up rows
    // with Knex).
    files: ['bin/**', 'server/**'],
    ignores: ['**/*.test.ts', 'server/**/*-repository.ts', 'server/db.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: [KNEX], patterns: [ENGINE_ENTRIES, LAB] }],
    },
  },
  {
    // The API contract is shared by the server and the console: it stands on zod alone, so that
    // the console can load it and a server change cannot leak into what the contract says.
    files: ['contract/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '(^|/)(server|console|engine|bin|lab|migrations)/',
              message: 'The contract imports only itself and zod.',
            },
          ],
        },
      ],
    },
  },
  {
    // The lab reads engine internals (tracker, media tools) as the benchmarks do.
    files: ['lab/**'],
    rules: { 'no-restricted-imports': 'off', 'no-restricted-syntax': 'off' },
  },
  {
    // A migration carries all it runs: an import of app code would change what an old migration
    // does to a database that has not run it whenever the app changes (frozen copies live in
    // migrations/frozen/).
    files: ['migrations/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^\\.\\./',
              message:
                'A migration imports nothing outside migrations/: freeze a copy in migrations/frozen/.',
            },
          ],
        },
      ],
    },
  },
  {
    // The benchmarks time engine internals (frame reader, ONNX session) and the fixture
    // generators draw with the engine's seeded random and tools so that fixtures stay in step.
    files: ['tests/bench/**', 'fixtures/**'],
    rules: { 'no-restricted-imports': 'off', 'no-restricted-syntax': 'off' },
  },
  {
    files: ['eslint.config.js'],
    ...tseslint.configs.disableTypeChecked,
  },
);

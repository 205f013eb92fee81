#!/usr/bin/env node
// Builds the CLI to one JavaScript file, dist/cli/hivesight.mjs, so that `hivesight --help`
// starts without compiling TypeScript. Run by `npm install` / `npm ci` (the prepare script).
//
// What is bundled: bin/cli and what it imports statically (commander's commands, the Ink views,
// the engine's vocabulary). What is not: packages (loaded from node_modules) and every source
// module the CLI imports dynamically (the engine with onnxruntime, the server, the database):
// those stay TypeScript, loaded through tsx, which the bundle registers the first time one of
// them is imported. So a command that needs them loads them as before, and --help never does.
//
// dist/cli/inputs.json names the bundled sources and when the build read them; bin/hivesight.mjs
// runs the bundle only while none of them has changed since, and the sources otherwise.
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const outDir = path.join(root, 'dist', 'cli');
const outFile = path.join(outDir, 'hivesight.mjs');

let esbuild;
try {
  // esbuild comes with tsx (a dependency), so it is there whenever the CLI can run at all.
  esbuild = await import('esbuild');
} catch {
  console.warn(
    'build-cli: esbuild is not installed; the CLI will run from its TypeScript sources.',
  );
  process.exit(0);
}

/** Dynamic imports of our own sources stay outside the bundle, addressed from dist/cli/. */
const lazySources = {
  name: 'lazy-sources',
  setup(build) {
    build.onResolve({ filter: /^\.\.?\//, namespace: 'file' }, (args) => {
      if (args.kind !== 'dynamic-import') return undefined;
      const target = path.resolve(args.resolveDir, args.path);
      let relative = path.relative(outDir, target).split(path.sep).join('/');
      if (!relative.startsWith('.')) relative = `./${relative}`;
      return { path: relative, external: true };
    });
  },
};

// The first import of a TypeScript source registers tsx (once); until then, none is loaded.
const banner = `
import { fileURLToPath as __hsPath } from 'node:url';
let __hsTsx;
async function __hsImportSource(specifier) {
  __hsTsx ??= import('tsx/esm/api').then(({ register }) =>
    register({ tsconfig: __hsPath(new URL('../../tsconfig.json', import.meta.url)) }),
  );
  await __hsTsx;
  return import(new URL(specifier, import.meta.url).href);
}
`;

const startedAt = Date.now();
const result = await esbuild.build({
  absWorkingDir: root,
  entryPoints: ['bin/cli/main.ts'],
  outfile: outFile,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  jsx: 'automatic',
  tsconfig: 'tsconfig.json',
  metafile: true,
  write: false,
  logLevel: 'warning',
  banner: { js: banner },
  plugins: [lazySources],
});

const [output] = result.outputFiles;
// Every dynamic import of a .ts/.tsx source goes through the tsx registration above.
const code = output.text.replace(
  /\bimport\(("\.{1,2}\/[^"]+\.tsx?")\)/g,
  (_, specifier) => `__hsImportSource(${specifier})`,
);
if (/\bimport\("\.{1,2}\/[^"]+\.tsx?"\)/.test(code)) throw new Error('unrewritten source import');

const inputs = Object.keys(result.metafile.inputs)
  .filter((file) => !file.startsWith('node_modules/'))
  .sort();
await mkdir(outDir, { recursive: true });
await writeFile(`${outFile}.tmp`, code);
await rename(`${outFile}.tmp`, outFile);
await writeFile(
  path.join(outDir, 'inputs.json'),
  `${JSON.stringify({ builtAt: startedAt, inputs }, null, 1)}\n`,
);
const kb = Math.round((await readFile(outFile)).length / 1024);
console.log(`build-cli: dist/cli/hivesight.mjs (${kb} KiB from ${inputs.length} sources)`);

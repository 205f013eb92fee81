#!/usr/bin/env node
// Builds the CLI to JavaScript in dist/cli/, so that `hivesight --help` starts without compiling
// TypeScript. Run by `npm install` / `npm ci` (the prepare script).
//
// What is bundled: bin/cli and what it imports statically (commander's commands, the Ink views,
// the engine's vocabulary) into dist/cli/hivesight.mjs, and the engine (engine/index.ts, which
// the CLI imports dynamically) into a chunk of its own beside it, loaded only by the commands
// that analyse: compiling the engine's sources through tsx cost every `analyze` more CPU time
// than loading the model. What is not: packages (loaded from node_modules) and every other
// source module the CLI imports dynamically (the server, the database): those stay TypeScript,
// loaded through tsx, which the bundle registers the first time one of them is imported. So a
// command that needs them loads them as before, and --help loads neither them nor the engine.
//
// dist/cli/inputs.json names the bundled sources and when the build read them; bin/hivesight.mjs
// runs the bundle only while none of them has changed since, and the sources otherwise.
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
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

/** Sources imported dynamically that are bundled all the same, each into a chunk of its own. */
const bundledLazily = new Set([path.join(root, 'engine', 'index.ts')]);

/** Dynamic imports of our own sources stay outside the bundle, addressed from dist/cli/. */
const lazySources = {
  name: 'lazy-sources',
  setup(build) {
    build.onResolve({ filter: /^\.\.?\//, namespace: 'file' }, (args) => {
      if (args.kind !== 'dynamic-import') return undefined;
      const target = path.resolve(args.resolveDir, args.path);
      if (bundledLazily.has(target)) return undefined;
      let relative = path.relative(outDir, target).split(path.sep).join('/');
      if (!relative.startsWith('.')) relative = `./${relative}`;
      return { path: relative, external: true };
    });
  },
};

/**
 * `import.meta.url` in a bundled source stays that source's own URL (the engine finds its models
 * from it), not the URL of the dist/cli/ file it was bundled into.
 */
const sourceUrls = {
  name: 'source-urls',
  setup(build) {
    build.onLoad({ filter: /\.tsx?$/, namespace: 'file' }, async (args) => {
      if (args.path.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
      const contents = await readFile(args.path, 'utf8');
      if (!contents.includes('import.meta.url')) return undefined;
      const fromOut = path.relative(outDir, args.path).split(path.sep).join('/');
      return {
        contents: contents.replaceAll(
          'import.meta.url',
          `new URL(${JSON.stringify(fromOut)}, import.meta.url).href`,
        ),
        loader: args.path.endsWith('x') ? 'tsx' : 'ts',
      };
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
  entryPoints: { hivesight: 'bin/cli/main.ts' },
  outdir: outDir,
  entryNames: '[name]',
  chunkNames: '[name]-[hash]',
  outExtension: { '.js': '.mjs' },
  splitting: true,
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
  plugins: [lazySources, sourceUrls],
});

// Every dynamic import of a .ts/.tsx source goes through the tsx registration above.
const outputs = result.outputFiles.map((output) => {
  const code = output.text.replace(
    /\bimport\(("\.{1,2}\/[^"]+\.tsx?")\)/g,
    (_, specifier) => `__hsImportSource(${specifier})`,
  );
  if (/\bimport\("\.{1,2}\/[^"]+\.tsx?"\)/.test(code)) throw new Error('unrewritten source import');
  return { file: output.path, code };
});
if (!outputs.some(({ file }) => file === outFile)) throw new Error(`no ${outFile} built`);

const inputs = Object.keys(result.metafile.inputs)
  .filter((file) => !file.startsWith('node_modules/'))
  .sort();
await mkdir(outDir, { recursive: true });
// The chunks first and the entry last, each renamed into place, then the chunks of older builds
// (content-hashed names) removed.
for (const { file, code } of outputs.sort((a) => (a.file === outFile ? 1 : -1))) {
  await writeFile(`${file}.tmp`, code);
  await rename(`${file}.tmp`, file);
}
const current = new Set(outputs.map(({ file }) => path.basename(file)));
for (const name of await readdir(outDir)) {
  if (name.endsWith('.mjs') && !current.has(name)) await rm(path.join(outDir, name));
}
await writeFile(
  path.join(outDir, 'inputs.json'),
  `${JSON.stringify({ builtAt: startedAt, inputs }, null, 1)}\n`,
);
const kb = (file) => Math.round(outputs.find((o) => o.file === file).code.length / 1024);
const chunks = outputs.filter(({ file }) => file !== outFile);
console.log(
  `build-cli: dist/cli/hivesight.mjs (${kb(outFile)} KiB) and ${chunks.length} lazily loaded ` +
    `chunk(s) (${chunks.reduce((sum, { file }) => sum + kb(file), 0)} KiB) from ${inputs.length} sources`,
);

/**
 * Where ffmpeg and ffprobe live. The only place in the project that knows: `FFMPEG_PATH` /
 * `FFPROBE_PATH` first, then the optional `ffmpeg-static` / `ffprobe-static` packages (when
 * installed and their binary is really there), then the `PATH`.
 */
import { accessSync, constants, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { ToolMissingError } from '../errors.ts';

export interface MediaTools {
  /** Absolute path (or command name) of ffmpeg. */
  ffmpeg: string;
  /** Absolute path (or command name) of ffprobe. */
  ffprobe: string;
}

const require = createRequire(import.meta.url);

export function resolveMediaTools(env: NodeJS.ProcessEnv = process.env): MediaTools {
  return {
    ffmpeg: resolveTool('ffmpeg', env.FFMPEG_PATH, () => staticPath('ffmpeg-static'), env),
    ffprobe: resolveTool('ffprobe', env.FFPROBE_PATH, () => staticPath('ffprobe-static'), env),
  };
}

function resolveTool(
  name: 'ffmpeg' | 'ffprobe',
  fromEnv: string | undefined,
  fromPackage: () => string | undefined,
  env: NodeJS.ProcessEnv,
): string {
  const variable = name === 'ffmpeg' ? 'FFMPEG_PATH' : 'FFPROBE_PATH';
  if (fromEnv && fromEnv.trim() !== '') {
    if (!isExecutableFile(fromEnv)) {
      throw new ToolMissingError(
        `${variable} is set to ${fromEnv}, but no ${name} program is there.`,
      );
    }
    return fromEnv;
  }
  const packaged = fromPackage();
  if (packaged && isExecutableFile(packaged)) return packaged;
  const onPath = findOnPath(name, env);
  if (onPath) return onPath;
  throw new ToolMissingError(
    `${name} was not found. Install ffmpeg (for example "apt-get install ffmpeg") or set ${variable}.`,
  );
}

/** The binary path an optional `*-static` package reports, or undefined when it is absent. */
function staticPath(pkg: 'ffmpeg-static' | 'ffprobe-static'): string | undefined {
  try {
    const exported: unknown = require(pkg);
    if (typeof exported === 'string') return exported;
    if (exported && typeof exported === 'object' && 'path' in exported) {
      const p = exported.path;
      return typeof p === 'string' ? p : undefined;
    }
  } catch {
    // Optional dependency not installed (or its install script did not run).
  }
  return undefined;
}

function findOnPath(name: string, env: NodeJS.ProcessEnv): string | undefined {
  const dirs = (env.PATH ?? '').split(path.delimiter).filter((d) => d !== '');
  const names = process.platform === 'win32' ? [`${name}.exe`, name] : [name];
  for (const dir of dirs) {
    for (const candidate of names) {
      const full = path.join(dir, candidate);
      if (isExecutableFile(full)) return full;
    }
  }
  return undefined;
}

function isExecutableFile(file: string): boolean {
  try {
    if (!statSync(file).isFile()) return false;
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

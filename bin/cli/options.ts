/**
 * Options shared by commands, bound to environment variables (`--model` HIVESIGHT_MODEL,
 * `--fps` HIVESIGHT_FPS, `--threads` HIVESIGHT_THREADS) and validated on parse, so a bad value
 * is a usage error (exit 2) before any work starts.
 */
import { InvalidArgumentError, Option } from 'commander';

/** Where analyze and watch write when --out is not given: a folder of its own, here. */
export const DEFAULT_OUT = './hivesight-results';

export function positiveNumber(name: string, max: number) {
  return (value: string): number => {
    const n = Number(value);
    if (value.trim() === '' || !Number.isFinite(n) || n <= 0 || n > max) {
      throw new InvalidArgumentError(`${name} must be a number above 0 and at most ${max}.`);
    }
    return n;
  };
}

export function positiveInteger(name: string, max: number) {
  return (value: string): number => {
    const n = Number(value);
    if (!/^\s*\d+\s*$/.test(value) || n < 1 || n > max) {
      throw new InvalidArgumentError(`${name} must be a whole number from 1 to ${max}.`);
    }
    return n;
  };
}

export const modelOption = () =>
  new Option(
    '--model <path>',
    'model card (.card.json), or an .onnx file with its card beside it (default: the shipped model)',
  ).env('HIVESIGHT_MODEL');

export const fpsOption = () =>
  new Option('--fps <n>', 'analysed frames per second of video (default 5)')
    .env('HIVESIGHT_FPS')
    .argParser(positiveNumber('--fps', 120));

export const threadsOption = () =>
  new Option('--threads <n>', 'inference threads (default: onnxruntime chooses)')
    .env('HIVESIGHT_THREADS')
    .argParser(positiveInteger('--threads', 256));

export interface EngineFlags {
  model?: string;
  fps?: number;
  threads?: number;
}

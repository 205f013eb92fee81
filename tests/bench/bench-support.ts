/**
 * Small helpers shared by the benchmark scripts (`npm run bench`): argument parsing, statistics,
 * a plain-text table, machine facts and the JSON result file under bench-out/. Benchmarks are
 * scripts that print figures, never timed tests.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const BENCH_OUT = path.resolve('bench-out');

/** `--name value` / `--name=value` / `--flag` from argv. */
export function parseArgs(argv: string[] = process.argv.slice(2)): Map<string, string> {
  const args = new Map<string, string>();
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i]!;
    if (!arg.startsWith('--')) continue;
    const eq = arg.indexOf('=');
    if (eq > 0) {
      args.set(arg.slice(2, eq), arg.slice(eq + 1));
    } else if (argv[i + 1] !== undefined && !argv[i + 1]!.startsWith('--')) {
      args.set(arg.slice(2), argv[i + 1]!);
      i += 1;
    } else {
      args.set(arg.slice(2), 'true');
    }
  }
  return args;
}

export function intArg(args: Map<string, string>, name: string, fallback: number): number {
  const raw = args.get(name);
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) throw new Error(`--${name} must be a whole number`);
  return n;
}

/** The q-quantile (0..1) of the values, nearest-rank. */
export function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[rank]!;
}

/** The middle value (the mean of the two middle ones for an even count). */
export function median(values: readonly number[]): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export function round(n: number, digits = 1): number {
  const f = 10 ** digits;
  return Math.round(n * f) / f;
}

/** Prints rows as an aligned text table (first column left, the rest right). */
export function printTable(
  title: string,
  header: string[],
  rows: Array<Array<string | number>>,
): void {
  const cells = [header, ...rows.map((r) => r.map((c) => String(c)))];
  const widths = header.map((_, i) => Math.max(...cells.map((r) => (r[i] ?? '').length)));
  const line = (r: string[]) =>
    r.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  console.log(`\n${title}`);
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const r of cells.slice(1)) console.log(line(r));
}

/** CPU count, model, load averages and memory: the context every figure needs. */
export function machineFacts(): Record<string, unknown> {
  const cpus = os.cpus();
  return {
    cpus: cpus.length,
    cpuModel: cpus[0]?.model ?? 'unknown',
    loadAvg: os.loadavg().map((n) => round(n, 2)),
    totalMemMiB: Math.round(os.totalmem() / 2 ** 20),
    node: process.version,
    platform: `${os.platform()} ${os.release()}`,
  };
}

/** Writes `bench-out/<name>-<timestamp>.json` and `bench-out/<name>-latest.json`. */
export function writeResults(name: string, data: unknown): string {
  fs.mkdirSync(BENCH_OUT, { recursive: true });
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const file = path.join(BENCH_OUT, `${name}-${stamp}.json`);
  const text = JSON.stringify(data, null, 2) + '\n';
  fs.writeFileSync(file, text);
  fs.writeFileSync(path.join(BENCH_OUT, `${name}-latest.json`), text);
  return file;
}

/** Resident set size of a process in bytes, from /proc (Linux); null when unreadable. */
export function procRss(pid: number): number | null {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const m = /^VmRSS:\s+(\d+)\s+kB/m.exec(status);
    return m ? Number(m[1]) * 1024 : null;
  } catch {
    return null;
  }
}

/** Peak resident set size of a process in bytes (VmHWM), from /proc; null when unreadable. */
export function procPeakRss(pid: number): number | null {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const m = /^VmHWM:\s+(\d+)\s+kB/m.exec(status);
    return m ? Number(m[1]) * 1024 : null;
  } catch {
    return null;
  }
}

/** CPU time (user + system) a process has used, in ms, from /proc (Linux); null when unreadable. */
export function procCpuMs(pid: number): number | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces): state is field 3, utime 14, stime 15.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]);
    return Number.isFinite(ticks) ? ticks * 10 : null; // USER_HZ is 100 on Linux
  } catch {
    return null;
  }
}

/**
 * CPU time of every running process called `name` (e.g. `postgres`: the server's backends and
 * its background processes), in ms, from /proc (Linux); null when /proc is unreadable. Processes
 * that exit between two readings take their time with them.
 */
export function processesCpuMs(name: string): number | null {
  let pids: string[];
  try {
    pids = fs.readdirSync('/proc').filter((entry) => /^\d+$/.test(entry));
  } catch {
    return null;
  }
  let total = 0;
  for (const pid of pids) {
    try {
      if (fs.readFileSync(`/proc/${pid}/comm`, 'utf8').trim() !== name) continue;
    } catch {
      continue; // exited meanwhile
    }
    total += procCpuMs(Number(pid)) ?? 0;
  }
  return total;
}

/**
 * CPU time (user + system) of this process's children that have exited and been waited for,
 * their own children included, in ms, from /proc (Linux); null when unreadable.
 */
export function childrenCpuMs(): number | null {
  try {
    const stat = fs.readFileSync('/proc/self/stat', 'utf8');
    // cutime and cstime are fields 16 and 17.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[13]) + Number(fields[14]);
    return Number.isFinite(ticks) ? ticks * 10 : null; // USER_HZ is 100 on Linux
  } catch {
    return null;
  }
}

export const mib = (bytes: number): number => round(bytes / 2 ** 20, 1);

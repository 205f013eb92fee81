import { Writable } from 'node:stream';
import { CommanderError } from 'commander';
import { describe, expect, it } from 'vitest';
import { DatasetError } from '../../engine/vocabulary.ts';
import { parseGates } from './commands/eval.ts';
import { EXIT_BUG, EXIT_USAGE, EXIT_USER, reportError, UsageError, UserError } from './errors.ts';
import { OutputNames } from './outputs.ts';
import { splitSummary, summaryFromState } from './watch-state.ts';
import type { WatchState } from './watch-state.ts';

function sink() {
  let text = '';
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      text += chunk.toString();
      done();
    },
  });
  return { stream, text: () => text };
}

describe('reportError', () => {
  it('renders user errors with their hint, exit 1', () => {
    const out = sink();
    expect(
      reportError(new UserError('no such file', 'check the path'), {
        debug: false,
        stream: out.stream,
      }),
    ).toBe(EXIT_USER);
    expect(out.text()).toMatch(/error: no such file\n.*hint: check the path/s);
  });

  it('treats engine errors as user errors with a hint', () => {
    const out = sink();
    expect(reportError(new DatasetError('bad dataset'), { debug: false, stream: out.stream })).toBe(
      EXIT_USER,
    );
    expect(out.text()).toMatch(/hint: .*images\//);
  });

  it('exits 2 for usage errors, 70 for bugs with the stack only under debug', () => {
    expect(reportError(new UsageError('x'), { debug: false, stream: sink().stream })).toBe(
      EXIT_USAGE,
    );
    expect(
      reportError(new CommanderError(1, 'commander.unknownOption', 'x'), {
        debug: false,
        stream: sink().stream,
      }),
    ).toBe(EXIT_USAGE);
    expect(
      reportError(new CommanderError(0, 'commander.version', '1'), {
        debug: false,
        stream: sink().stream,
      }),
    ).toBe(0);
    const quiet = sink();
    expect(reportError(new TypeError('boom'), { debug: false, stream: quiet.stream })).toBe(
      EXIT_BUG,
    );
    expect(quiet.text()).not.toMatch(/at /);
    const loud = sink();
    reportError(new TypeError('boom'), { debug: true, stream: loud.stream });
    expect(loud.text()).toMatch(/TypeError: boom\n\s+at /);
  });
});

describe('OutputNames', () => {
  it('keeps base names unique (case-insensitive) and reserves summary', () => {
    const names = new OutputNames();
    expect(names.allocate('x/a.mp4')).toBe('a');
    expect(names.allocate('y/a.mp4')).toBe('a-2');
    expect(names.allocate('A.jpg')).toBe('A-3');
    expect(names.allocate('summary.mp4')).toBe('summary-2');
    expect(names.allocate('odd name?.png')).toBe('odd_name_');
  });
});

describe('parseGates', () => {
  it('reads CLASS=X lists, repeatable', () => {
    expect(parseGates('bee=0.9, Hornet=0.5', [{ cls: 'pollen', min: 0.1 }])).toEqual([
      { cls: 'pollen', min: 0.1 },
      { cls: 'bee', min: 0.9 },
      { cls: 'hornet', min: 0.5 },
    ]);
    expect(() => parseGates('bees=0.9')).toThrow(/not a class/);
    expect(() => parseGates('bee=1.5')).toThrow(/between 0 and 1/);
    expect(() => parseGates('bee')).toThrow(/CLASS=X/);
  });
});

describe('watch summary', () => {
  it('rebuilds summary.csv from the stored rows in file order', () => {
    expect(splitSummary('file,kind\r\nb.mp4,video\r\n')).toEqual({
      header: 'file,kind',
      row: 'b.mp4,video',
    });
    const entry = { size: 1, mtimeMs: 1, sha256: 'x', finishedAt: '' };
    const state: WatchState = {
      version: 1,
      files: {
        'b.mp4': { ...entry, stem: 'b', status: 'done', summaryRow: 'b.mp4,video' },
        'bad.mp4': { ...entry, stem: 'bad', status: 'failed', error: 'corrupt' },
        'a.jpg': { ...entry, stem: 'a', status: 'done', summaryRow: 'a.jpg,image' },
      },
    };
    expect(summaryFromState(state, 'file,kind')).toBe('file,kind\na.jpg,image\nb.mp4,video\n');
    // Rows kept from before columns were appended get empty cells (a quoted comma is one field).
    state.files['a.jpg']!.summaryRow = '"a,1.jpg",image';
    expect(summaryFromState(state, 'file,kind,quality')).toBe(
      'file,kind,quality\n"a,1.jpg",image,\nb.mp4,video,\n',
    );
  });
});

describe('file system errors', () => {
  it('are user errors naming the path', () => {
    const error = Object.assign(new Error('ENOENT: no such file'), {
      code: 'ENOENT',
      path: 'x.mp4',
    });
    const out = sink();
    expect(reportError(error, { debug: false, stream: out.stream })).toBe(EXIT_USER);
    expect(out.text()).toMatch(/x\.mp4: no such file/);
  });
});

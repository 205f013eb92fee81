import { describe, expect, it } from 'vitest';
import { cleanText, clip } from './text.ts';

describe('cleanText', () => {
  it('removes bidi controls and zero-width characters', () => {
    const controls = ['\u202A', '\u202B', '\u202C', '\u202D', '\u202E', '\u2066', '\u2067'];
    controls.push('\u2068', '\u2069', '\u200E', '\u200F', '\u061C');
    controls.push('\u200B', '\u200C', '\u200D', '\u2060', '\uFEFF');
    for (const c of controls)
      expect(cleanText(`Bob${c}nimda`), c.codePointAt(0)!.toString(16)).toBe('Bobnimda');
    expect(cleanText('report\u202Egpj.exe')).toBe('reportgpj.exe');
  });

  it('turns control characters and line separators into one space, and trims', () => {
    expect(cleanText('two\r\nlines')).toBe('two lines');
    expect(cleanText('tab\there')).toBe('tab here');
    expect(cleanText('a \n\n b')).toBe('a b');
    expect(cleanText('esc\u001b[31mred')).toBe('esc [31mred');
    expect(cleanText('c1\u0085\u009bx')).toBe('c1 x');
    expect(cleanText('para\u2029graph\u2028')).toBe('para graph');
    expect(cleanText(' \t\r\n ')).toBe('');
    expect(cleanText('\u200B\u202E\uFEFF')).toBe('');
  });

  it('replaces lone surrogates and keeps pairs', () => {
    expect(cleanText('a\uD800b')).toBe('a\uFFFDb');
    expect(cleanText('a\uDC00')).toBe('a\uFFFD');
    expect(cleanText('bee \uD83D\uDC1D')).toBe('bee \uD83D\uDC1D');
  });

  it('keeps every other script and symbol as it is', () => {
    for (const text of ['Zoë Ōtsuka مريم', 'Rucher n°3 — côté sud', '蜂箱 1', 'a+b=c @home'])
      expect(cleanText(text)).toBe(text);
  });
});

describe('clip', () => {
  it('cuts at most max units without splitting a surrogate pair', () => {
    expect(clip('abcdef', 4)).toBe('abcd');
    expect(clip('abc\uD83D\uDC1D', 4)).toBe('abc');
    expect(clip('ab', 4)).toBe('ab');
  });
});

/**
 * A minimal POSIX ustar writer: enough to hand an export folder to a browser as one download
 * without a dependency (plain files and folders, names under 100 bytes, no links).
 */
const BLOCK = 512;

function header(name: string, size: number, type: '0' | '5', mtime: Date): Buffer {
  const h = Buffer.alloc(BLOCK);
  if (Buffer.byteLength(name) > 99) throw new Error(`tar name too long: ${name}`);
  const put = (text: string, offset: number, length: number) =>
    h.write(text.slice(0, length), offset, length, 'utf8');
  const octal = (n: number, length: number) => `${n.toString(8).padStart(length - 1, '0')}\0`;
  put(name, 0, 100);
  put(octal(type === '5' ? 0o755 : 0o644, 8), 100, 8);
  put(octal(0, 8), 108, 8);
  put(octal(0, 8), 116, 8);
  put(octal(size, 12), 124, 12);
  put(octal(Math.floor(mtime.getTime() / 1000), 12), 136, 12);
  put('        ', 148, 8); // the checksum counts its own field as spaces
  put(type, 156, 1);
  put('ustar\0', 257, 6);
  put('00', 263, 2);
  let sum = 0;
  for (const byte of h) sum += byte;
  put(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 8);
  return h;
}

export interface TarEntry {
  /** Path inside the archive, `/`-separated; a folder ends with `/`. */
  name: string;
  data?: Buffer;
}

export function tarArchive(entries: readonly TarEntry[], mtime = new Date()): Buffer {
  const parts: Buffer[] = [];
  for (const e of entries) {
    const isDir = e.name.endsWith('/');
    const data = isDir ? Buffer.alloc(0) : (e.data ?? Buffer.alloc(0));
    parts.push(header(e.name, data.length, isDir ? '5' : '0', mtime));
    if (data.length > 0) {
      parts.push(data);
      const pad = (BLOCK - (data.length % BLOCK)) % BLOCK;
      if (pad) parts.push(Buffer.alloc(pad));
    }
  }
  parts.push(Buffer.alloc(BLOCK * 2));
  return Buffer.concat(parts);
}

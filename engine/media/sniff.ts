/**
 * Identifies a file by its content (magic bytes), never by its name, and reads what can be
 * known without decoding: picture dimensions from the PNG IHDR / JPEG SOFn header (so a
 * decompression bomb is refused before any decoder sees it), container truncation, and
 * references to other files (MP4 data references, AVI subtitle streams that embed other
 * formats, playlists and concat scripts) which are refused as unsafe.
 */
import { open } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { CorruptMediaError, UnsafeMediaError, UnsupportedMediaError } from '../errors.ts';
import type { MediaFormat } from './run-tool.ts';

export interface SniffResult {
  format: MediaFormat;
  /** Picture width from the header (images only). */
  width?: number;
  /** Picture height from the header (images only). */
  height?: number;
}

export const UNSUPPORTED_MESSAGE =
  'The file is not a supported image or video (expected MP4, AVI, JPEG or PNG).';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** ISO-BMFF brands that are pictures or other things the mov demuxer should not be given. */
const REFUSED_BRANDS = new Set([
  'heic', 'heix', 'heim', 'heis', 'hevc', 'hevx', 'hevm', 'hevs', 'mif1', 'msf1', 'avif', 'avis',
  'crx ', 'jp2 ', 'jpx ', 'jpm ', 'mjp2',
]); // prettier-ignore

/** Text that makes a demuxer open other files: HLS playlists, concat scripts, AVI GAB2 subtitles. */
const UNSAFE_MARKERS = ['#EXTM3U', '#EXT-X-', 'ffconcat version', 'GAB2\0'].map((s) =>
  Buffer.from(s, 'latin1'),
);

export async function sniffFile(file: string): Promise<SniffResult> {
  const handle = await open(file, 'r');
  try {
    const size = (await handle.stat()).size;
    if (size === 0) throw new CorruptMediaError('The file is empty.');
    const head = await readAt(handle, 0, Math.min(size, 64));
    if (head.length >= 8 && head.subarray(0, 8).equals(PNG_SIGNATURE)) {
      // A PNG ends with its IEND chunk; allow a little trailing junk, not a missing end.
      const tail = await readAt(handle, Math.max(0, size - 1024), Math.min(size, 1024));
      if (!tail.includes(Buffer.from('IEND', 'latin1'))) {
        throw new CorruptMediaError('The PNG file is truncated.');
      }
      return sniffPng(head);
    }
    if (head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) {
      return await sniffJpeg(handle, size);
    }
    if (head.length >= 12 && ascii(head, 0, 4) === 'RIFF' && ascii(head, 8, 4) === 'AVI ') {
      await sniffAvi(handle, size, head);
      return { format: 'avi' };
    }
    if (head.length >= 12 && ascii(head, 4, 4) === 'ftyp') {
      await sniffMp4(handle, size, head);
      return { format: 'mp4' };
    }
    throw new UnsupportedMediaError(UNSUPPORTED_MESSAGE);
  } finally {
    await handle.close();
  }
}

// ---------------------------------------------------------------- PNG

function sniffPng(head: Buffer): SniffResult {
  // Signature, then the IHDR chunk: length 13, "IHDR", width, height (big-endian).
  if (head.length < 24) throw new CorruptMediaError('The PNG file is truncated.');
  if (ascii(head, 12, 4) !== 'IHDR') throw new CorruptMediaError('The PNG file is damaged.');
  const width = head.readUInt32BE(16);
  const height = head.readUInt32BE(20);
  if (width === 0 || height === 0) throw new CorruptMediaError('The PNG file is damaged.');
  return { format: 'png', width, height };
}

// ---------------------------------------------------------------- JPEG

const MAX_JPEG_SEGMENTS = 1000;

async function sniffJpeg(handle: FileHandle, size: number): Promise<SniffResult> {
  let pos = 2;
  for (let segments = 0; segments < MAX_JPEG_SEGMENTS; segments += 1) {
    const header = await readAt(handle, pos, 9);
    if (header.length < 2) break;
    if (header[0] !== 0xff) throw new CorruptMediaError('The JPEG file is damaged.');
    const marker = header[1] ?? 0;
    if (marker === 0xff) {
      pos += 1; // fill byte
      continue;
    }
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      pos += 2; // markers without a length
      continue;
    }
    if (marker === 0xd9 || marker === 0xda) break; // EOI or start of scan before any frame header
    if (header.length < 4) break;
    const length = header.readUInt16BE(2);
    if (length < 2) throw new CorruptMediaError('The JPEG file is damaged.');
    // SOF0..SOF15 carry the frame size; C4 (DHT), C8 (JPG) and CC (DAC) share the range.
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      if (header.length < 9) break;
      const height = header.readUInt16BE(5);
      const width = header.readUInt16BE(7);
      // Height 0 means "defined later by a DNL marker": legal, rare, and not worth the risk.
      if (width === 0 || height === 0) throw new CorruptMediaError('The JPEG file is damaged.');
      if (pos + 2 + length > size) throw new CorruptMediaError('The JPEG file is truncated.');
      return { format: 'jpeg', width, height };
    }
    pos += 2 + length;
  }
  throw new CorruptMediaError('The JPEG file is truncated or damaged (no picture header).');
}

// ---------------------------------------------------------------- AVI

async function sniffAvi(handle: FileHandle, size: number, head: Buffer): Promise<void> {
  const riffSize = head.readUInt32LE(4);
  // A RIFF size past the end of the file means the file was cut short. 0 and 0xffffffff are
  // written by some streaming muxers that never went back to fill the size in.
  if (riffSize !== 0 && riffSize !== 0xffffffff && riffSize + 8 > size) {
    throw new CorruptMediaError('The AVI video is truncated (the file ends early).');
  }
  await refuseUnsafeMarkers(handle, size, 'AVI');
}

// ---------------------------------------------------------------- MP4 (ISO base media)

const MAX_BOXES = 20_000;
/** Boxes whose children we walk to reach every data reference (`dref`). */
const CONTAINERS = new Set(['moov', 'trak', 'mdia', 'minf', 'dinf', 'edts', 'mvex', 'moof']);

interface BoxWalk {
  boxes: number;
  sawMoov: boolean;
}

async function sniffMp4(handle: FileHandle, size: number, head: Buffer): Promise<void> {
  const brand = ascii(head, 8, 4);
  if (REFUSED_BRANDS.has(brand)) throw new UnsupportedMediaError(UNSUPPORTED_MESSAGE);
  const walk: BoxWalk = { boxes: 0, sawMoov: false };
  await walkBoxes(handle, 0, size, size, walk, 0);
  if (!walk.sawMoov) {
    throw new CorruptMediaError('The MP4 video is truncated or damaged (no movie header).');
  }
}

async function walkBoxes(
  handle: FileHandle,
  start: number,
  end: number,
  fileSize: number,
  walk: BoxWalk,
  depth: number,
): Promise<void> {
  let pos = start;
  while (pos + 8 <= end) {
    walk.boxes += 1;
    if (walk.boxes > MAX_BOXES || depth > 12) {
      throw new UnsupportedMediaError('The MP4 video has an unusual structure and was refused.');
    }
    const header = await readAt(handle, pos, 16);
    let boxSize = header.readUInt32BE(0);
    const type = ascii(header, 4, 4);
    let headerSize = 8;
    if (boxSize === 1) {
      if (header.length < 16) throw new CorruptMediaError('The MP4 video is truncated.');
      boxSize = Number(header.readBigUInt64BE(8));
      headerSize = 16;
    } else if (boxSize === 0) {
      boxSize = end - pos; // "to the end of the file"
    }
    if (boxSize < headerSize) throw new CorruptMediaError('The MP4 video is damaged.');
    if (pos + boxSize > end) {
      throw new CorruptMediaError('The MP4 video is truncated (the file ends early).');
    }
    const bodyStart = pos + headerSize;
    const bodyEnd = pos + boxSize;
    if (type === 'moov' && depth === 0) walk.sawMoov = true;
    if (type === 'cmov') {
      throw new UnsupportedMediaError(
        'The MP4 video uses a compressed header, which is not supported.',
      );
    }
    if (type === 'dref') await checkDref(handle, bodyStart, bodyEnd);
    else if (type === 'meta')
      await walkBoxes(handle, bodyStart + 4, bodyEnd, fileSize, walk, depth + 1);
    else if (CONTAINERS.has(type))
      await walkBoxes(handle, bodyStart, bodyEnd, fileSize, walk, depth + 1);
    pos = bodyEnd;
  }
}

/** Every data reference must say "the data is in this file" (flag 1); anything else is refused. */
async function checkDref(handle: FileHandle, start: number, end: number): Promise<void> {
  const unsafe = new UnsafeMediaError(
    'The MP4 video refers to data in other files or at a URL, which is not allowed.',
  );
  const body = await readAt(handle, start, Math.min(end - start, 64 * 1024));
  if (body.length < 8) throw new CorruptMediaError('The MP4 video is damaged.');
  const count = body.readUInt32BE(4);
  let pos = 8;
  for (let i = 0; i < count; i += 1) {
    if (pos + 12 > body.length) throw unsafe;
    const entrySize = body.readUInt32BE(pos);
    const flags = body.readUInt32BE(pos + 8) & 0xffffff;
    if ((flags & 1) === 0) throw unsafe;
    if (entrySize < 12) throw new CorruptMediaError('The MP4 video is damaged.');
    pos += entrySize;
  }
}

// ---------------------------------------------------------------- shared

/**
 * Scans the whole file for playlist / concat / GAB2 text. A file that embeds one of these is
 * trying to make the decoder open something else; a chance match in compressed data would need
 * 7+ exact bytes and is negligible.
 */
async function refuseUnsafeMarkers(handle: FileHandle, size: number, kind: string): Promise<void> {
  const chunkSize = 1 << 20;
  const overlap = 32;
  let pos = 0;
  while (pos < size) {
    const chunk = await readAt(handle, pos, Math.min(chunkSize, size - pos));
    if (chunk.length === 0) break;
    for (const marker of UNSAFE_MARKERS) {
      if (chunk.includes(marker)) {
        throw new UnsafeMediaError(
          `The ${kind} file embeds a playlist or script that would open other files; it was refused.`,
        );
      }
    }
    if (pos + chunk.length >= size) break;
    pos += chunk.length - overlap;
  }
}

async function readAt(handle: FileHandle, position: number, length: number): Promise<Buffer> {
  const buffer = Buffer.alloc(Math.max(0, length));
  const { bytesRead } = await handle.read(buffer, 0, buffer.length, position);
  return buffer.subarray(0, bytesRead);
}

function ascii(buffer: Buffer, offset: number, length: number): string {
  return buffer.toString('latin1', offset, offset + length);
}

/**
 * Windows bitmaps (.bmp), which the bundled image library cannot read: decoded here to RGBA pixels.
 * Covers what painting programs and screenshots write — uncompressed 1, 4, 8 (palette), 16, 24 and 32-bit
 * images, with or without colour masks (BI_BITFIELDS), bottom-up or top-down, every header version.
 * Run-length compressed bitmaps (rare) are reported as unsupported rather than guessed at. Also the
 * bitmap images inside .ico files, with their transparency masks.
 *
 * Why not the decode-bmp / decode-ico packages: tried (0.2.1 / 0.4.1) on the bitmaps of bmp.spec.ts, they
 * refuse top-down rows, 16-bit colour and the OS/2 header, ignore BI_BITFIELDS colour masks (wrong colours),
 * make a plain 32-bit bitmap fully transparent, and draw a run-length compressed one as garbage.
 */

export interface BmpPixels {
  width: number;
  height: number;
  /** width × height × 4 bytes, top row first. */
  rgba: Buffer;
}

/** Why a file that starts like a bitmap could not be decoded. */
export type BmpProblem = 'unsupported' | 'broken' | 'too-many-pixels';

export class BmpError extends Error {
  constructor(readonly problem: BmpProblem) {
    super(`BMP: ${problem}`);
  }
}

const BI_RGB = 0;
const BI_BITFIELDS = 3;
const BI_ALPHABITFIELDS = 6;

export function isBmp(b: Buffer): boolean {
  if (b.length < 26 || b[0] !== 0x42 || b[1] !== 0x4d) return false; // 'BM'
  const headerSize = b.readUInt32LE(14);
  return [12, 40, 52, 56, 64, 108, 124].includes(headerSize);
}

/** The pixels of a bitmap; throws {@link BmpError} when it cannot be read or has more than `maxPixels`. */
export function decodeBmp(b: Buffer, maxPixels: number): BmpPixels {
  if (!isBmp(b)) throw new BmpError('broken');
  return decodeDib(b.subarray(14), b.readUInt32LE(10) - 14, maxPixels, false);
}

/**
 * One image of an .ico file stored as a bitmap (older icons, and the small sizes of most): a bitmap without
 * its file header, twice as high as the icon (the colours, then a 1-bit transparency mask).
 */
export function decodeIconBitmap(dib: Buffer, maxPixels: number): BmpPixels {
  if (dib.length < 40 || dib.readUInt32LE(0) < 40) throw new BmpError('broken');
  return decodeDib(dib, undefined, maxPixels, true);
}

/**
 * A device-independent bitmap: its header at 0, its pixels at `pixelOffset` (after the header, masks and
 * palette when not given). An icon's is twice its height, the second half a 1-bit AND mask (1 = clear).
 */
function decodeDib(b: Buffer, pixelOffset: number | undefined, maxPixels: number, icon: boolean): BmpPixels {
  if (b.length < 12) throw new BmpError('broken');
  const headerSize = b.readUInt32LE(0);
  const core = headerSize === 12;
  if (b.length < headerSize) throw new BmpError('broken');
  const width = core ? b.readUInt16LE(4) : b.readInt32LE(4);
  const storedHeight = core ? b.readInt16LE(6) : b.readInt32LE(8);
  const bpp = core ? b.readUInt16LE(10) : b.readUInt16LE(14);
  const compression = core ? BI_RGB : b.readUInt32LE(16);
  const topDown = storedHeight < 0 && !icon;
  const height = icon ? Math.abs(storedHeight) / 2 : Math.abs(storedHeight);
  if (width <= 0 || height <= 0 || !Number.isInteger(height)) throw new BmpError('broken');
  if (width * height > maxPixels) throw new BmpError('too-many-pixels');
  if (compression !== BI_RGB && compression !== BI_BITFIELDS && compression !== BI_ALPHABITFIELDS) throw new BmpError('unsupported');
  if (![1, 4, 8, 16, 24, 32].includes(bpp)) throw new BmpError('unsupported');

  const rowBytes = Math.ceil((width * bpp) / 32) * 4;
  const masks = colourMasks(b, headerSize, bpp, compression);
  const palette = bpp <= 8 ? readPalette(b, headerSize, core, bpp, compression) : [];
  const pixelsAt = pixelOffset ?? headerSize + (compression === BI_BITFIELDS && headerSize === 40 ? 12 : 0) + palette.length * (core ? 3 : 4);
  const maskRowBytes = Math.ceil(width / 32) * 4;
  if (pixelsAt < 0 || pixelsAt + rowBytes * height + (icon ? maskRowBytes * height : 0) > b.length) throw new BmpError('broken');
  const rgba = Buffer.alloc(width * height * 4);
  for (let y = 0; y < height; y += 1) {
    const row = pixelsAt + (topDown ? y : height - 1 - y) * rowBytes;
    for (let x = 0; x < width; x += 1) {
      const out = (y * width + x) * 4;
      if (bpp <= 8) {
        const bitOffset = x * bpp;
        const byte = b[row + (bitOffset >> 3)];
        const index = (byte >> (8 - bpp - (bitOffset & 7))) & ((1 << bpp) - 1);
        const colour = palette[index] ?? 0;
        rgba[out] = (colour >> 16) & 0xff;
        rgba[out + 1] = (colour >> 8) & 0xff;
        rgba[out + 2] = colour & 0xff;
        rgba[out + 3] = 255;
      } else if (bpp === 24) {
        const at = row + x * 3;
        rgba[out] = b[at + 2];
        rgba[out + 1] = b[at + 1];
        rgba[out + 2] = b[at];
        rgba[out + 3] = 255;
      } else {
        const value = bpp === 16 ? b.readUInt16LE(row + x * 2) : b.readUInt32LE(row + x * 4);
        rgba[out] = channel(value, masks.r);
        rgba[out + 1] = channel(value, masks.g);
        rgba[out + 2] = channel(value, masks.b);
        rgba[out + 3] = masks.a ? channel(value, masks.a) : 255;
      }
    }
  }
  // A 32-bit image whose alpha mask holds only zeros was never meant to be transparent.
  const alphaUnused = !masks.a || !rgba.some((v, i) => (i & 3) === 3 && v !== 0);
  if (masks.a && alphaUnused) {
    for (let i = 3; i < rgba.length; i += 4) rgba[i] = 255;
  }
  // An icon without an alpha channel of its own is clear where its AND mask says so.
  if (icon && alphaUnused) {
    const maskAt = pixelsAt + rowBytes * height;
    for (let y = 0; y < height; y += 1) {
      const row = maskAt + (height - 1 - y) * maskRowBytes;
      for (let x = 0; x < width; x += 1) if ((b[row + (x >> 3)] >> (7 - (x & 7))) & 1) rgba[(y * width + x) * 4 + 3] = 0;
    }
  }
  return { width, height, rgba };
}

interface Masks {
  r: number;
  g: number;
  b: number;
  a: number;
}

function colourMasks(b: Buffer, headerSize: number, bpp: number, compression: number): Masks {
  if (compression === BI_BITFIELDS || compression === BI_ALPHABITFIELDS) {
    // In the header from version 2 on; right after a 40-byte header otherwise: at 40 either way.
    const at = 40;
    if (b.length < at + 12) throw new BmpError('broken');
    const hasAlpha = compression === BI_ALPHABITFIELDS || headerSize >= 56;
    return {
      r: b.readUInt32LE(at),
      g: b.readUInt32LE(at + 4),
      b: b.readUInt32LE(at + 8),
      a: hasAlpha && b.length >= at + 16 ? b.readUInt32LE(at + 12) : 0,
    };
  }
  if (bpp === 16) return { r: 0x7c00, g: 0x03e0, b: 0x001f, a: 0 };
  // 32-bit BI_RGB: BGRX, with the fourth byte as alpha when a V3+ header says so is rare; read it, and the
  // all-zero check above makes the usual "unused" byte opaque.
  return { r: 0x00ff0000, g: 0x0000ff00, b: 0x000000ff, a: bpp === 32 ? 0xff000000 : 0 };
}

/** The value of one colour channel under its mask, scaled to 0–255. */
function channel(value: number, mask: number): number {
  if (!mask) return 0;
  let shift = 0;
  while (((mask >>> shift) & 1) === 0) shift += 1;
  let bits = 0;
  while (((mask >>> (shift + bits)) & 1) === 1 && shift + bits < 32) bits += 1;
  const v = ((value & mask) >>> 0) >>> shift;
  const max = 2 ** bits - 1;
  return Math.round((v * 255) / max);
}

function readPalette(b: Buffer, headerSize: number, core: boolean, bpp: number, compression: number): number[] {
  const entrySize = core ? 3 : 4;
  const used = core ? 0 : b.readUInt32LE(32);
  const count = used > 0 && used <= 1 << bpp ? used : 1 << bpp;
  const start = headerSize + (compression === BI_BITFIELDS && headerSize === 40 ? 12 : 0);
  if (start + count * entrySize > b.length) throw new BmpError('broken');
  return Array.from({ length: count }, (_, i) => {
    const at = start + i * entrySize;
    return (b[at + 2] << 16) | (b[at + 1] << 8) | b[at];
  });
}

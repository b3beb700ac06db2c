/**
 * Windows bitmaps (.bmp), which the bundled image library cannot read: decoded here to RGBA pixels.
 * Covers what painting programs and screenshots write — uncompressed 1, 4, 8 (palette), 16, 24 and 32-bit
 * images, with or without colour masks (BI_BITFIELDS), bottom-up or top-down, every header version.
 * Run-length compressed bitmaps (rare) are reported as unsupported rather than guessed at.
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
  const pixelOffset = b.readUInt32LE(10);
  const headerSize = b.readUInt32LE(14);
  const core = headerSize === 12;
  if (b.length < 14 + headerSize) throw new BmpError('broken');
  const width = core ? b.readUInt16LE(18) : b.readInt32LE(18);
  const rawHeight = core ? b.readInt16LE(20) : b.readInt32LE(22);
  const bpp = core ? b.readUInt16LE(24) : b.readUInt16LE(28);
  const compression = core ? BI_RGB : b.readUInt32LE(30);
  const topDown = rawHeight < 0;
  const height = Math.abs(rawHeight);
  if (width <= 0 || height <= 0) throw new BmpError('broken');
  if (width * height > maxPixels) throw new BmpError('too-many-pixels');
  if (compression !== BI_RGB && compression !== BI_BITFIELDS && compression !== BI_ALPHABITFIELDS) throw new BmpError('unsupported');
  if (![1, 4, 8, 16, 24, 32].includes(bpp)) throw new BmpError('unsupported');

  const rowBytes = Math.ceil((width * bpp) / 32) * 4;
  if (pixelOffset + rowBytes * height > b.length) throw new BmpError('broken');

  const masks = colourMasks(b, headerSize, bpp, compression);
  const palette = bpp <= 8 ? readPalette(b, headerSize, core, bpp, compression) : [];
  const rgba = Buffer.alloc(width * height * 4);
  for (let y = 0; y < height; y += 1) {
    const row = pixelOffset + (topDown ? y : height - 1 - y) * rowBytes;
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
  if (masks.a && !rgba.some((v, i) => (i & 3) === 3 && v !== 0)) {
    for (let i = 3; i < rgba.length; i += 4) rgba[i] = 255;
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
    // In the header from version 2 on; right after a 40-byte header otherwise.
    const at = 14 + 40;
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
  const used = core ? 0 : b.readUInt32LE(46);
  const count = used > 0 && used <= 1 << bpp ? used : 1 << bpp;
  const start = 14 + headerSize + (compression === BI_BITFIELDS && headerSize === 40 ? 12 : 0);
  if (start + count * entrySize > b.length) throw new BmpError('broken');
  return Array.from({ length: count }, (_, i) => {
    const at = start + i * entrySize;
    return (b[at + 2] << 16) | (b[at + 1] << 8) | b[at];
  });
}

// Test-only: images made with sharp on the fly (no binary fixtures). Nothing in the library imports this file.
import sharp from 'sharp';

type Colour = string | { r: number; g: number; b: number; alpha: number };

/** A plain image of one colour in the given format. */
export function makeImage(
  width: number,
  height: number,
  format: 'jpeg' | 'png' | 'webp' | 'gif' | 'avif' | 'tiff' = 'jpeg',
  background: Colour = '#3366cc',
): Promise<Buffer> {
  const channels = typeof background === 'string' ? 3 : 4;
  return sharp({ create: { width, height, channels, background } })
    .toFormat(format)
    .toBuffer();
}

/** An animated GIF or WebP: one frame per colour, each shown `delay` ms, looping forever. */
export async function makeAnimation(
  width: number,
  height: number,
  format: 'gif' | 'webp',
  colours = ['#cc3333', '#33cc33', '#3333cc'],
  delay = [100, 200, 300],
): Promise<Buffer> {
  const frames = await Promise.all(colours.map((background) => sharp({ create: { width, height, channels: 3, background } }).png().toBuffer()));
  const joined = sharp(frames, { join: { animated: true } });
  return (format === 'gif' ? joined.gif({ delay, loop: 0 }) : joined.webp({ delay, loop: 0 })).toBuffer();
}

/** A photo as a phone writes it: EXIF with the camera and the owner's name, and "rotate 90° to show" (6). */
export function photoWithExif(width: number, height: number): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: '#aa5500' } })
    .jpeg()
    .withExif({ IFD0: { Copyright: 'Jane Private', Make: 'SpyCam', Artist: 'Jane Private' } })
    .withMetadata({ orientation: 6 })
    .toBuffer();
}

/** Noise does not compress: a PNG of about width × height × 3 bytes. */
export function noisePng(width: number, height: number): Promise<Buffer> {
  const pixels = Buffer.alloc(width * height * 3);
  for (let i = 0; i < pixels.length; i += 1) pixels[i] = (Math.random() * 256) | 0;
  return sharp(pixels, { raw: { width, height, channels: 3 } }).png({ compressionLevel: 0 }).toBuffer();
}

/** A .ico file holding one PNG entry (as Windows Vista and later write large icons). */
export async function icoWithPng(size: number): Promise<Buffer> {
  const png = await makeImage(size, size, 'png', { r: 200, g: 0, b: 0, alpha: 1 });
  const header = Buffer.alloc(6 + 16);
  header.writeUInt16LE(0, 0); // reserved
  header.writeUInt16LE(1, 2); // type: icon
  header.writeUInt16LE(1, 4); // one image
  header[6] = size >= 256 ? 0 : size;
  header[7] = size >= 256 ? 0 : size;
  header.writeUInt16LE(1, 10); // colour planes
  header.writeUInt16LE(32, 12); // bits per pixel
  header.writeUInt32LE(png.length, 14);
  header.writeUInt32LE(header.length, 18);
  return Buffer.concat([header, png]);
}

export const SVG = Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg" width="400" height="300"><script>alert(1)</script><rect width="400" height="300" fill="red"/></svg>',
);
export const HTML = Buffer.from('<!doctype html><html><body><script>document.write(document.cookie)</script></body></html>');
export const TEXT = Buffer.from('Just some notes, certainly not a picture.\n');
export const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');
/** Starts like a PNG, and is not one. */
export const FAKE_PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from('not really a png at all')]);

/** How {@link makeBmp} lays a bitmap out. */
export interface BmpLayout {
  bpp: 1 | 4 | 8 | 16 | 24 | 32;
  topDown?: boolean;
  /** 32-bit only: colour masks (in R, G, B, A byte order rather than the usual B, G, R). */
  bitfields?: boolean;
  /** With `bitfields`: each pixel's alpha, row by row (a version 3 header then carries an alpha mask). */
  alpha?: number[];
  /** The OS/2 12-byte header. */
  core?: boolean;
  /** The header's compression field, to claim what the rows are not (1 = RLE8). */
  compression?: number;
}

/** A Windows bitmap of `picture` (rows of 0xRRGGBB, top row first), written by hand as the format says. */
export function makeBmp(picture: number[][], layout: BmpLayout): Buffer {
  const { bpp, topDown = false, bitfields = false, alpha, core = false } = layout;
  const width = picture[0].length;
  const height = picture.length;
  const palette = bpp <= 8 ? [...new Set(picture.flat())] : [];
  const headerSize = core ? 12 : alpha ? 56 : 40;
  const masksAfterHeader = bitfields && headerSize === 40 ? 12 : 0;
  const paletteBytes = palette.length * (core ? 3 : 4);
  const pixelOffset = 14 + headerSize + masksAfterHeader + paletteBytes;
  const rowBytes = Math.ceil((width * bpp) / 32) * 4;
  const file = Buffer.alloc(pixelOffset + rowBytes * height);

  file.write('BM', 0, 'latin1');
  file.writeUInt32LE(file.length, 2);
  file.writeUInt32LE(pixelOffset, 10);
  file.writeUInt32LE(headerSize, 14);
  if (core) {
    file.writeUInt16LE(width, 18);
    file.writeInt16LE(topDown ? -height : height, 20);
    file.writeUInt16LE(1, 22);
    file.writeUInt16LE(bpp, 24);
  } else {
    file.writeInt32LE(width, 18);
    file.writeInt32LE(topDown ? -height : height, 22);
    file.writeUInt16LE(1, 26);
    file.writeUInt16LE(bpp, 28);
    file.writeUInt32LE(layout.compression ?? (bitfields ? 3 : 0), 30);
    file.writeUInt32LE(rowBytes * height, 34);
    file.writeUInt32LE(2835, 38);
    file.writeUInt32LE(2835, 42);
    file.writeUInt32LE(palette.length, 46);
  }
  const masks = [0x000000ff, 0x0000ff00, 0x00ff0000, 0xff000000]; // R, G, B, A
  if (bitfields) masks.slice(0, alpha ? 4 : 3).forEach((mask, i) => file.writeUInt32LE(mask, 54 + i * 4));
  palette.forEach((colour, i) => {
    const at = 14 + headerSize + masksAfterHeader + i * (core ? 3 : 4);
    file[at] = colour & 0xff;
    file[at + 1] = (colour >> 8) & 0xff;
    file[at + 2] = (colour >> 16) & 0xff;
  });

  picture.forEach((rowColours, y) => {
    const row = pixelOffset + (topDown ? y : height - 1 - y) * rowBytes;
    rowColours.forEach((colour, x) => {
      const [r, g, b] = [(colour >> 16) & 0xff, (colour >> 8) & 0xff, colour & 0xff];
      if (bpp <= 8) {
        const bit = x * bpp;
        file[row + (bit >> 3)] |= palette.indexOf(colour) << (8 - bpp - (bit & 7));
      } else if (bpp === 16) {
        file.writeUInt16LE(((r >> 3) << 10) | ((g >> 3) << 5) | (b >> 3), row + x * 2);
      } else if (bpp === 24) {
        file[row + x * 3] = b;
        file[row + x * 3 + 1] = g;
        file[row + x * 3 + 2] = r;
      } else if (bitfields) {
        const a = alpha ? alpha[y * width + x] : 0;
        file.writeUInt32LE((r | (g << 8) | (b << 16) | (a << 24)) >>> 0, row + x * 4);
      } else {
        file.writeUInt32LE(((r << 16) | (g << 8) | b) >>> 0, row + x * 4);
      }
    });
  });
  return file;
}

/**
 * A .ico file holding one bitmap entry (as most icons store their small sizes): the bitmap without its
 * file header, its height doubled, followed by the 1-bit AND mask (`clear[y][x]` true = transparent).
 */
export function icoWithBitmap(picture: number[][], layout: BmpLayout, clear?: boolean[][]): Buffer {
  const width = picture[0].length;
  const height = picture.length;
  const dib = Buffer.from(makeBmp(picture, layout).subarray(14));
  dib.writeInt32LE(height * 2, 8);
  const maskRow = Math.ceil(width / 32) * 4;
  const mask = Buffer.alloc(maskRow * height);
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) if (clear?.[y][x]) mask[(height - 1 - y) * maskRow + (x >> 3)] |= 0x80 >> (x & 7);
  }
  const header = Buffer.alloc(6 + 16);
  header.writeUInt16LE(1, 2); // type: icon
  header.writeUInt16LE(1, 4); // one image
  header[6] = width;
  header[7] = height;
  header.writeUInt16LE(1, 10);
  header.writeUInt16LE(layout.bpp, 12);
  header.writeUInt32LE(dib.length + mask.length, 14);
  header.writeUInt32LE(header.length, 18);
  return Buffer.concat([header, dib, mask]);
}

/**
 * A file as an iPhone saves a photo, as far as this machine can make one: an image in the HEIF container
 * branded `heic` (HEVC-coded), which the bundled image library cannot decode (nor encode, hence a sharp AVIF
 * relabelled, its coding boxes renamed to HEVC's).
 */
export async function heicLike(): Promise<Buffer> {
  const file = Buffer.from(await makeImage(64, 48, 'avif'));
  for (const [from, to] of [['avif', 'heic'], ['av01', 'hvc1'], ['av1C', 'hvcC']]) {
    for (let at = file.indexOf(from); at >= 0; at = file.indexOf(from)) file.write(to, at, 'latin1');
  }
  return file;
}

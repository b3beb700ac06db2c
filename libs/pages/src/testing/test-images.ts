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

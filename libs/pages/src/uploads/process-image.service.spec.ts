import { BadRequestException } from '@nestjs/common';
import sharp from 'sharp';
import { UploadMessages } from '@plink/contracts';
import { FAKE_PNG, HTML, PDF, SVG, TEXT, icoWithPng, makeImage, photoWithExif } from '../testing/test-images';
import { ProcessImageService } from './process-image.service';

describe('ProcessImageService', () => {
  const images = new ProcessImageService();

  async function refusal(promise: Promise<unknown>): Promise<string> {
    const err = await promise.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(BadRequestException);
    return ((err as BadRequestException).getResponse() as { message: string }).message;
  }

  it('shrinks a main image to 1600 px wide, keeping its proportions, as JPEG', async () => {
    const out = await images.execute(await makeImage(3000, 2000), 'main');
    expect(out).toMatchObject({ contentType: 'image/jpeg', ext: 'jpg', width: 1600, height: 1067 });
    expect(await sharp(out.body).metadata()).toMatchObject({ format: 'jpeg', width: 1600, height: 1067 });
  });

  it('keeps a tall main image within 1600 × 1600', async () => {
    expect(await images.execute(await makeImage(1000, 4000), 'main')).toMatchObject({ width: 400, height: 1600 });
  });

  it('never enlarges a small main or background image', async () => {
    expect(await images.execute(await makeImage(320, 200, 'png'), 'main')).toMatchObject({ width: 320, height: 200 });
    expect(await images.execute(await makeImage(640, 480), 'background')).toMatchObject({ width: 640, height: 480 });
  });

  it('shrinks a background to 2560 px wide', async () => {
    const out = await images.execute(await makeImage(4000, 1000, 'png'), 'background');
    // An opaque PNG photo is stored as JPEG: a fraction of the size.
    expect(out).toMatchObject({ contentType: 'image/jpeg', width: 2560, height: 640 });
  });

  it('keeps transparency as PNG', async () => {
    const out = await images.execute(await makeImage(800, 600, 'png', { r: 0, g: 128, b: 0, alpha: 0.5 }), 'main');
    expect(out).toMatchObject({ contentType: 'image/png', ext: 'png', width: 800, height: 600 });
    const meta = await sharp(out.body).metadata();
    expect(meta).toMatchObject({ format: 'png', hasAlpha: true });
  });

  it('makes every favicon a 64 × 64 PNG with the whole image in it', async () => {
    for (const input of [await makeImage(300, 100), await makeImage(16, 16, 'png'), await makeImage(1024, 1024, 'webp')]) {
      const out = await images.execute(input, 'favicon');
      expect(out).toMatchObject({ contentType: 'image/png', width: 64, height: 64 });
      expect(await sharp(out.body).metadata()).toMatchObject({ format: 'png', width: 64, height: 64 });
    }
    // A wide logo is letterboxed, not cropped: transparent rows above and below it.
    const { data, info } = await sharp((await images.execute(await makeImage(300, 100), 'favicon')).body).raw().toBuffer({ resolveWithObject: true });
    expect(info.channels).toBe(4);
    expect(data[3]).toBe(0); // top-left pixel transparent
    expect(data[(32 * 64 + 32) * 4 + 3]).toBe(255); // centre opaque
  });

  it('accepts a .ico favicon that holds a PNG, and only as a favicon', async () => {
    const ico = await icoWithPng(32);
    expect(await images.execute(ico, 'favicon')).toMatchObject({ contentType: 'image/png', width: 64, height: 64 });
    expect(await refusal(images.execute(ico, 'main'))).toBe(UploadMessages.notAnImage);
  });

  it('makes a sharing image exactly 1200 × 630, cropped to fill, as JPEG on white', async () => {
    for (const input of [await makeImage(800, 800, 'webp'), await makeImage(3000, 1000, 'png', { r: 0, g: 0, b: 0, alpha: 0 })]) {
      const out = await images.execute(input, 'meta');
      expect(out).toMatchObject({ contentType: 'image/jpeg', width: 1200, height: 630 });
      expect(await sharp(out.body).metadata()).toMatchObject({ format: 'jpeg', width: 1200, height: 630, hasAlpha: false });
    }
  });

  it('turns a photo upright by its EXIF orientation and stores none of its metadata', async () => {
    const photo = await photoWithExif(300, 200);
    const before = await sharp(photo).metadata();
    expect(before.orientation).toBe(6);
    expect(before.exif?.toString('latin1')).toContain('Jane Private');
    const out = await images.execute(photo, 'main');
    expect(out).toMatchObject({ width: 200, height: 300 });
    const after = await sharp(out.body).metadata();
    expect(after.exif).toBeUndefined();
    expect(after.orientation).toBeUndefined();
    expect(after.icc).toBeUndefined();
    expect(out.body.toString('latin1')).not.toContain('Jane Private');
    expect(out.body.toString('latin1')).not.toContain('SpyCam');
  });

  it.each(['jpeg', 'png', 'webp', 'gif', 'avif', 'tiff'] as const)('accepts %s', async (format) => {
    const out = await images.execute(await makeImage(120, 80, format), 'main');
    expect(out).toMatchObject({ width: 120, height: 80 });
  });

  it('refuses what is not a raster image, whatever it claims to be', async () => {
    for (const file of [TEXT, HTML, SVG, PDF, FAKE_PNG, Buffer.alloc(0), Buffer.from('GIF89a')]) {
      for (const type of ['main', 'favicon', 'background', 'meta'] as const) {
        expect(await refusal(images.execute(file, type))).toBe(UploadMessages.notAnImage);
      }
    }
  });

  it('refuses an SVG even behind a few bytes of whitespace or an XML declaration', async () => {
    const xml = Buffer.concat([Buffer.from('<?xml version="1.0"?>\n  '), SVG]);
    expect(await refusal(images.execute(xml, 'main'))).toBe(UploadMessages.notAnImage);
  });

  it('refuses a decompression bomb: a small file of more than 40 megapixels', async () => {
    const bomb = await sharp({ create: { width: 8000, height: 6000, channels: 3, background: '#ffffff' } })
      .png()
      .toBuffer();
    expect(bomb.length).toBeLessThan(2 * 1024 * 1024);
    expect(await refusal(images.execute(bomb, 'main'))).toBe(UploadMessages.tooManyPixels);
  });
});

import { BmpError, decodeBmp, isBmp } from './bmp';
import { makeBmp, type BmpLayout } from '../testing/test-images';

/** A 3 × 2 picture: top row red, green, blue; bottom row white, black, 50 % grey. */
const PICTURE = [
  [0xff0000, 0x00ff00, 0x0000ff],
  [0xffffff, 0x000000, 0x808080],
];
const rgbAt = (rgba: Buffer, width: number, x: number, y: number) => {
  const i = (y * width + x) * 4;
  return (rgba[i] << 16) | (rgba[i + 1] << 8) | rgba[i + 2];
};

describe('BMP decoding', () => {
  it.each<[string, BmpLayout]>([
    ['24-bit, bottom-up (the usual)', { bpp: 24 }],
    ['24-bit, top-down', { bpp: 24, topDown: true }],
    ['32-bit with an unused fourth byte', { bpp: 32 }],
    ['32-bit with colour masks', { bpp: 32, bitfields: true }],
    ['8-bit palette', { bpp: 8 }],
    ['4-bit palette', { bpp: 4 }],
    ['OS/2 core header, 24-bit', { bpp: 24, core: true }],
  ])('reads a %s bitmap pixel for pixel', (_name, layout) => {
    const file = makeBmp(PICTURE, layout);
    expect(isBmp(file)).toBe(true);
    const { width, height, rgba } = decodeBmp(file, 1_000);
    expect({ width, height }).toEqual({ width: 3, height: 2 });
    for (let y = 0; y < 2; y += 1) for (let x = 0; x < 3; x += 1) expect(rgbAt(rgba, 3, x, y)).toBe(PICTURE[y][x]);
    for (let i = 3; i < rgba.length; i += 4) expect(rgba[i]).toBe(255);
  });

  it('reads a 1-bit black-and-white bitmap', () => {
    const picture = [
      [0x000000, 0xffffff, 0x000000, 0xffffff, 0x000000, 0xffffff, 0x000000, 0xffffff, 0xffffff],
      [0xffffff, 0xffffff, 0x000000, 0x000000, 0xffffff, 0xffffff, 0x000000, 0x000000, 0x000000],
    ];
    const { rgba } = decodeBmp(makeBmp(picture, { bpp: 1 }), 1_000);
    for (let y = 0; y < 2; y += 1) for (let x = 0; x < 9; x += 1) expect(rgbAt(rgba, 9, x, y)).toBe(picture[y][x]);
  });

  it('reads 16-bit colour (5 bits a channel) to the nearest 8-bit value', () => {
    const { rgba } = decodeBmp(makeBmp(PICTURE, { bpp: 16 }), 1_000);
    expect(rgbAt(rgba, 3, 0, 0)).toBe(0xff0000);
    expect(rgbAt(rgba, 3, 1, 1)).toBe(0x000000);
    expect(rgba[(1 * 3 + 2) * 4]).toBe(132); // 0x80 → 16 of 31 → 132
  });

  it('keeps the transparency of a 32-bit bitmap with an alpha mask', () => {
    const file = makeBmp(PICTURE, { bpp: 32, bitfields: true, alpha: [255, 128, 0, 255, 255, 64] });
    const { rgba } = decodeBmp(file, 1_000);
    expect([3, 7, 11, 15, 19, 23].map((i) => rgba[i])).toEqual([255, 128, 0, 255, 255, 64]);
  });

  it('refuses a run-length compressed bitmap as unsupported, a cut-off one as broken, a huge one by its pixels', () => {
    const problem = (f: () => unknown) => {
      try {
        f();
      } catch (err) {
        return (err as BmpError).problem;
      }
      return 'decoded';
    };
    expect(problem(() => decodeBmp(makeBmp(PICTURE, { bpp: 8, compression: 1 }), 1_000))).toBe('unsupported');
    const whole = makeBmp(PICTURE, { bpp: 24 });
    expect(problem(() => decodeBmp(whole.subarray(0, whole.length - 4), 1_000))).toBe('broken');
    expect(problem(() => decodeBmp(whole, 5))).toBe('too-many-pixels');
    expect(isBmp(Buffer.from('BM not really a bitmap at all'))).toBe(false);
  });
});

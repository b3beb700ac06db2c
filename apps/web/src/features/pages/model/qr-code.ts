import { toDataURL, toString as toSvgString, type QRCodeRenderersOptions } from 'qrcode';

/**
 * Medium error correction (about 15% of the code may be damaged) and the two-module quiet zone most
 * scanners need: a printed code stays readable on a flyer.
 */
const OPTIONS: QRCodeRenderersOptions = { errorCorrectionLevel: 'M', margin: 2, color: { dark: '#000000', light: '#ffffff' } };
/** The PNG's size in pixels: sharp when printed a few centimetres wide. */
export const QR_PNG_SIZE = 1024;

export interface QrCodeFiles {
  /** The code as an SVG file (vector: for print), and as a data URL to show or download. */
  svg: string;
  svgDataUrl: string;
  /** The code as a PNG data URL (for chats and slides). */
  pngDataUrl: string;
}

/** The QR code of `url`, made in the browser: the link never leaves the page to be encoded. */
export async function qrCodeFiles(url: string): Promise<QrCodeFiles> {
  const [svg, pngDataUrl] = await Promise.all([
    toSvgString(url, { ...OPTIONS, type: 'svg', width: QR_PNG_SIZE }),
    toDataURL(url, { ...OPTIONS, type: 'image/png', width: QR_PNG_SIZE }),
  ]);
  return { svg, svgDataUrl: `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`, pngDataUrl };
}

/** `free-guide-qr.png`: the download's name says which page it is for. */
export const qrFileName = (slug: string, type: 'png' | 'svg') => `${slug}-qr.${type}`;

import { toDataURL, toString as toSvgString, type QRCodeRenderersOptions } from 'qrcode';

/**
 * Medium error correction (about 15% of the code may be damaged) and the two-module quiet zone most
 * scanners need: a printed code stays readable on a flyer.
 */
const OPTIONS: QRCodeRenderersOptions = { errorCorrectionLevel: 'M', margin: 2, color: { dark: '#000000', light: '#ffffff' } };
/** The PNG's size in pixels: sharp when printed a few centimetres wide. */
export const QR_PNG_SIZE = 1024;

/**
 * The QR code of `url` as an SVG data URL (vector: for print; shown, and downloaded as the SVG file), made in the
 * browser: the link never leaves the page to be encoded.
 */
export async function qrCodeSvgUrl(url: string): Promise<string> {
  const svg = await toSvgString(url, { ...OPTIONS, type: 'svg', width: QR_PNG_SIZE });
  return `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
}

/**
 * The QR code of `url` as a PNG data URL (for chats and slides), made only when asked for: a 1024-pixel image is
 * drawn and encoded for it, work the dialog showing the code does not need.
 */
export function qrCodePng(url: string): Promise<string> {
  return toDataURL(url, { ...OPTIONS, type: 'image/png', width: QR_PNG_SIZE });
}

/** `free-guide-qr.png`: the download's name says which page it is for. */
export const qrFileName = (slug: string, type: 'png' | 'svg') => `${slug}-qr.${type}`;

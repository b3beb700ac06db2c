import { UPLOAD_IMAGE_TYPES, type UploadImageType } from '../http/uploads';

/**
 * An upload's storage key: `u{userId}/{type}-{22 random base64url characters}.{jpg|png|gif|webp}`. Namespaced per
 * user (so a page can only give up its own owner's files) and unguessable (128 random bits).
 */
const UPLOAD_KEY = new RegExp(`^u(\\d{1,12})/(?:${UPLOAD_IMAGE_TYPES.join('|')})-[A-Za-z0-9_-]{22}\\.(?:jpg|png|gif|webp)$`);

/** What UploadUrls needs of the storage port: the public URL of a stored key. */
export interface UploadStorage {
  publicUrl(key: string): string;
}

/** What an upload is stored as: JPEG or PNG, or GIF / WebP for an animation. */
export type UploadExt = 'jpg' | 'png' | 'gif' | 'webp';

export function newUploadKey(userId: number, type: UploadImageType, ext: UploadExt): string {
  // Web Crypto and btoa rather than node:crypto: the contracts are also bundled for the browser.
  const random = btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(16))));
  return `u${userId}/${type}-${random.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')}.${ext}`;
}

/** The owner of an upload key, or null when the string is not one. */
export function uploadKeyOwner(key: string): number | null {
  const match = UPLOAD_KEY.exec(key);
  return match ? Number(match[1]) : null;
}

/**
 * Between upload keys and the URLs pages store. An upload is reachable as `/uploads/{key}` (the gateway
 * serves it through the Storage port), as `{APP_ORIGIN}/uploads/{key}`, and, with S3_PUBLIC_URL, at the
 * bucket's public URL, which is what `publicUrl` answers then. Shared by the uploads service (which makes
 * the keys) and the pages service (which keeps the URLs and gives up a page's own uploads): an agreement
 * between two services, so it lives in the contracts, free of Nest; each service provides it with a factory
 * over its Storage port and config.
 */
export class UploadUrls {
  private readonly prefixes: string[];

  constructor(
    private readonly storage: UploadStorage,
    config: { appOrigin: string },
  ) {
    const probe = 'x.png';
    const publicBase = storage.publicUrl(probe).slice(0, -probe.length);
    this.prefixes = [...new Set(['/uploads/', `${config.appOrigin}/uploads/`, publicBase])];
  }

  /** The URL the SPA puts into the page. */
  urlOf(key: string): string {
    return this.storage.publicUrl(key);
  }

  /** Every URL under which a page may refer to `key`. */
  urlsOf(key: string): string[] {
    return this.prefixes.map((prefix) => prefix + key);
  }

  /** The key behind `url` when it is one of `userId`'s uploads; null for anything else (links elsewhere, others' files). */
  ownKeyOf(url: string | null | undefined, userId: number): string | null {
    if (!url) return null;
    for (const prefix of this.prefixes) {
      if (!url.startsWith(prefix)) continue;
      const key = url.slice(prefix.length);
      return uploadKeyOwner(key) === userId ? key : null;
    }
    return null;
  }

  /** The user's own uploads among a page's image fields (each once). */
  ownKeysOf(page: PageImages, userId: number): string[] {
    const keys = IMAGE_FIELDS.map((field) => this.ownKeyOf(page[field], userId)).filter((key): key is string => key !== null);
    return [...new Set(keys)];
  }
}

/** The page fields that may hold an uploaded image. */
export const IMAGE_FIELDS = ['imageUrl', 'backgroundImage', 'metaImageUrl', 'faviconUrl'] as const;
export type PageImages = { [F in (typeof IMAGE_FIELDS)[number]]?: string | null };

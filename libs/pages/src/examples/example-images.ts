import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { EXAMPLE_SLUGS } from '@plink/contracts';
import { Storage } from '@plink/storage';
import { getLogger } from '@plink/observability';

/** Where the example pages' images are stored: `/uploads/examples/{slug}.jpg` (see the examples migration). */
export const exampleImageKey = (slug: string) => `examples/${slug}.jpg`;

/** The image files committed with the code (copied next to the build by the build script). */
const IMAGES_DIR = join(__dirname, 'images');

/**
 * Puts the example pages' images into the uploads store (a folder or S3) when they are not there yet, at
 * start, so the pages and the templates made from them show them. Keys outside `u{userId}/` are never
 * swept nor removed with a creator's page.
 */
@Injectable()
export class ExampleImages implements OnApplicationBootstrap {
  constructor(private readonly storage: Storage) {}

  async onApplicationBootstrap(): Promise<void> {
    try {
      await this.ensureStored();
    } catch (err) {
      // The app still serves everything else; the example pages show without their pictures.
      getLogger().error({ err }, 'could not store the example pages images');
    }
  }

  async ensureStored(): Promise<number> {
    let stored = 0;
    for (const slug of EXAMPLE_SLUGS) {
      const key = exampleImageKey(slug);
      if (await this.storage.exists(key)) continue;
      await this.storage.put(key, await readFile(join(IMAGES_DIR, `${slug}.jpg`)), 'image/jpeg');
      stored += 1;
    }
    return stored;
  }
}

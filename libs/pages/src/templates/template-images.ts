import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { EXAMPLE_SLUGS } from '@plink/contracts';
import { Storage } from '@plink/storage';
import { getLogger } from '@plink/observability';
import { TEMPLATE_CATALOGUE, templateImageKey } from './template-catalogue';

/** Where the example pages' images are stored: `/uploads/examples/{slug}.jpg` (see the examples migration). */
const exampleImageKey = (slug: string) => `examples/${slug}.jpg`;

/** The image files committed with the code (copied next to the build by the build script). */
const EXAMPLE_IMAGES_DIR = join(__dirname, '../examples/images');
const TEMPLATE_IMAGES_DIR = join(__dirname, 'images');

/** Each picture: where it is stored, and its file. */
const IMAGES: ReadonlyArray<readonly [key: string, file: string]> = [
  ...EXAMPLE_SLUGS.map((slug) => [exampleImageKey(slug), join(EXAMPLE_IMAGES_DIR, `${slug}.jpg`)] as const),
  ...TEMPLATE_CATALOGUE.filter((entry) => !entry.example).map(
    (entry) => [templateImageKey(entry.slug), join(TEMPLATE_IMAGES_DIR, `${entry.slug}.jpg`)] as const,
  ),
];

/**
 * Puts the example pages' and the templates' images into the uploads store (a folder or S3) when they are not
 * there yet, at start, so the pages and the templates (and the pages made from them) show them. Keys outside
 * `u{userId}/` are never swept nor removed with a creator's page.
 */
@Injectable()
export class TemplateImages implements OnApplicationBootstrap {
  constructor(private readonly storage: Storage) {}

  async onApplicationBootstrap(): Promise<void> {
    try {
      await this.ensureStored();
    } catch (err) {
      // The app still serves everything else; the example pages and templates show without their pictures.
      getLogger().error({ err }, 'could not store the example pages and templates images');
    }
  }

  async ensureStored(): Promise<number> {
    let stored = 0;
    for (const [key, file] of IMAGES) {
      if (await this.storage.exists(key)) continue;
      await this.storage.put(key, await readFile(file), 'image/jpeg');
      stored += 1;
    }
    return stored;
  }
}

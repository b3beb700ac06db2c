import { Injectable } from '@nestjs/common';
import { MikroORM } from '@mikro-orm/postgresql';
import { createPageSchema, type CreatePageRequest } from '@plink/contracts';
import { withOrmContext } from '@plink/data';
import type { SignedInUser } from '@plink/http';
import { PagesRepository } from '../model/pages.repository';
import { CreatePageService } from '../use-cases/create-page.service';

/** The demo creator's sample page, as a creator would fill in the editor. */
export const DEMO_PAGE: CreatePageRequest = {
  slug: 'launch-checklist',
  title: 'The Launch Checklist',
  subtext:
    '<p>Everything to do in the week before you ship, on one printable page:</p>' +
    '<ul><li><strong>25 checks</strong> for your product, your landing page and your launch e-mail</li>' +
    '<li><strong>A day-by-day plan</strong> for the last seven days</li>' +
    '<li><strong>The five mistakes</strong> that cost launches their first visitors</li></ul>' +
    '<p>Free. Leave your e-mail address and it is in your inbox a minute later.</p>',
  authorName: 'Demo Creator',
  buttonText: 'Send Me the Checklist',
  buttonColor: '#0f766e',
  backgroundColor: '#f0fdfa',
  fileUrl: 'https://example.com/plink-demo/launch-checklist.pdf',
  textAlignment: 'center',
  titleFont: 'Poppins',
  thankYouHeadline: 'Your checklist is on its way!',
  thankYouSubtext: 'Check your inbox in a minute for the download link.',
  metaTitle: 'The Launch Checklist: 25 checks before you ship',
  metaDescription: 'A free one-page launch checklist: 25 checks for your product, landing page and launch e-mail, and a day-by-day plan for launch week.',
};

/** Visitors of the sample page over its first days: with its few leads, a conversion rate that looks like one. */
export const DEMO_PAGE_VIEWS = 164;

/** The pages service's part of the demo seed: the sample page, made by the same use case as a creator's save. */
@Injectable()
export class PagesDemo {
  constructor(
    private readonly orm: MikroORM,
    private readonly createPage: CreatePageService,
    private readonly pages: PagesRepository,
  ) {}

  /**
   * Creates the sample page for the demo creator, with the plan rules, sanitising and 'page.changed' (which
   * gives the leads service the page) of any save, then adds its views as the view flush would, once.
   */
  async createSamplePage(owner: SignedInUser): Promise<{ id: number; slug: string }> {
    const page = await withOrmContext(this.orm, () => this.createPage.execute(owner, createPageSchema.parse(DEMO_PAGE)));
    await this.pages.addViews(`demo-page-${page.id}`, [[page.id, DEMO_PAGE_VIEWS]]);
    return { id: page.id, slug: page.slug };
  }
}

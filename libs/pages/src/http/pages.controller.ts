import { Body, Controller, Delete, Get, HttpCode, NotFoundException, Param, Post, Put, Query, Req, UseGuards } from '@nestjs/common';
import { RouteConfig } from '@nestjs/platform-fastify';
import type { FastifyRequest } from 'fastify';
import { ApiQuery, ApiTags } from '@nestjs/swagger';
import {
  PageMessages,
  WebhookMessages,
  dailyViewsSchema,
  type DailyViewsDto,
  createPageSchema,
  keepPageLiveResponseSchema,
  messageResponseSchema,
  pageDtoSchema,
  pageListSchema,
  pageTemplateListSchema,
  pageTemplateSchema,
  publicPageSchema,
  webhookEndpointSchema,
  type KeepPageLiveResponse,
  updatePageSchema,
  type MessageResponse,
  type PageDto,
  type PageFields,
  type PageTemplateDto,
  type PageTemplateEntryDto,
  type PublicPageDto,
  type WebhookEndpointDto,
  isTemplateSlug,
  slugAvailabilityQuerySchema,
  slugAvailabilitySchema,
  slugSchema,
  type SlugAvailabilityDto,
  DeliveryEmailTexts,
  TrashTexts,
  testDeliveryEmailSchema,
  type TestDeliveryEmailFields,
} from '@plink/contracts';
import { ApiDoc, CurrentUser, IdParamPipe, SignedInGuard, ZodPipe, type SignedInUser } from '@plink/http';
import { PagesDirectory } from '../directory/pages-directory';
import { DailyViewsService } from '../analytics/daily-views.service';
import { toPageDto } from '../model/page.dto';
import { PagesRepository } from '../model/pages.repository';
import { CreatePageService } from '../use-cases/create-page.service';
import { TrashService } from '../trash/trash.service';
import { GetPageService } from '../use-cases/get-page.service';
import { KeepPageLiveService } from '../use-cases/keep-page-live.service';
import { ListPagesService } from '../use-cases/list-pages.service';
import { UpdatePageService } from '../use-cases/update-page.service';
import { SendTestEmailService, TEST_EMAIL_NEEDS_FILE } from '../use-cases/send-test-email.service';
import { PageTemplates } from '../templates/page-templates';
import { AnalyticsCounter, visitOf } from '../analytics/analytics-counter';
import { ViewCounter } from '../views/view-counter';
import { WebhookSecretBox, toWebhookEndpointDto } from '../webhooks/webhook-endpoint';
import { WebhookEndpointService } from '../webhooks/webhook-endpoint.service';
import { PartialZodPipe } from './partial-zod.pipe';

/**
 * Request bodies of page saves may carry rich text with inline images (each up to 2 MB): above the
 * app-wide 100 KB JSON limit, under this one. Larger bodies get the usual 413 JSON answer.
 */
export const PAGE_BODY_LIMIT = 8 * 1024 * 1024;

/** `:id` of a page: 404 for one that cannot exist, as for another's. */
const pageIdPipe = new IdParamPipe(PageMessages.pageNotFound);

/** What the plan decides about a page's fields, for the API reference. */
const PAGE_PLAN_NOTE =
  'A Free request is not refused for Pro-only settings: it saves the Free values (branding on, no webhook URL, no custom code).';

/** The page calls: a creator's own pages, and a page's public data. */
@ApiTags('Pages')
@Controller('api')
export class PagesController {
  constructor(
    private readonly listPages: ListPagesService,
    private readonly dailyViews: DailyViewsService,
    private readonly getPage: GetPageService,
    private readonly createPage: CreatePageService,
    private readonly updatePage: UpdatePageService,
    private readonly trash: TrashService,
    private readonly keepPageLive: KeepPageLiveService,
    private readonly directory: PagesDirectory,
    private readonly views: ViewCounter,
    private readonly analytics: AnalyticsCounter,
    private readonly webhookEndpoint: WebhookEndpointService,
    private readonly secrets: WebhookSecretBox,
    private readonly pages: PagesRepository,
    private readonly testEmail: SendTestEmailService,
    private readonly pageTemplates: PageTemplates,
  ) {}

  @ApiDoc({ summary: "The signed-in user's pages, with views and conversions", ok: pageListSchema })
  @Get('pages')
  @UseGuards(SignedInGuard)
  list(@CurrentUser() user: SignedInUser): Promise<PageDto[]> {
    return this.listPages.execute(user.id);
  }

  @ApiDoc({
    summary: "Each of the signed-in user's pages' views per UTC day over the last 30 days (the dashboard's sparklines)",
    ok: dailyViewsSchema,
  })
  @Get('pages/daily-views')
  @UseGuards(SignedInGuard)
  dailyViewsOf(@CurrentUser() user: SignedInUser): Promise<DailyViewsDto> {
    return this.dailyViews.execute(user.id);
  }

  @ApiDoc({
    summary: 'Create a page',
    description: `Only \`slug\` is required; every other field takes its default. ${PAGE_PLAN_NOTE} The page is live at once at \`/{slug}\`.`,
    body: createPageSchema,
    ok: pageDtoSchema,
    errors: {
      400: [PageMessages.slugReserved, PageMessages.slugCharacters, PageMessages.invalidUrl, WebhookMessages.blockedAddress],
      403: [PageMessages.verifyFirst, PageMessages.freePlanLimit],
      409: PageMessages.slugTaken,
    },
  })
  @Post('pages')
  @HttpCode(201)
  @UseGuards(SignedInGuard)
  @RouteConfig({ bodyLimit: PAGE_BODY_LIMIT })
  async create(@CurrentUser() user: SignedInUser, @Body(new ZodPipe(createPageSchema)) body: PageFields): Promise<PageDto> {
    // A new page has no conversions yet.
    return toPageDto(await this.createPage.execute(user, body), 0);
  }

  @ApiDoc({
    summary: 'Whether a page could take this address',
    description:
      "Asked while a creator types a page's address: the same rules as a save (characters, length, reserved words, another page having it in any case). `pageId` names the page being edited, which keeps its own address. A save still checks again: two creators may race for one address.",
    ok: slugAvailabilitySchema,
  })
  // The reference lists parameters bottom-up: the decorator nearest the route first.
  @ApiQuery({ name: 'pageId', required: false, schema: { type: 'integer', minimum: 1 }, description: 'The page being edited' })
  @ApiQuery({ name: 'slug', required: true, schema: { type: 'string' }, description: 'The address to check' })
  @Get('slug-availability')
  @UseGuards(SignedInGuard)
  async slugAvailability(@Query(new ZodPipe(slugAvailabilityQuerySchema)) query: { slug: string; pageId?: number }): Promise<SlugAvailabilityDto> {
    const parsed = slugSchema.safeParse(query.slug);
    if (!parsed.success) return { slug: query.slug, available: false, message: parsed.error.issues[0]?.message ?? PageMessages.slugCharacters };
    const taken = await this.pages.slugTaken(parsed.data, query.pageId);
    return { slug: parsed.data, available: !taken, message: taken ? PageMessages.slugTaken : null };
  }

  @ApiDoc({ summary: 'One of your pages', ok: pageDtoSchema, errors: { 404: PageMessages.pageNotFound } })
  @Get('pages/:id')
  @UseGuards(SignedInGuard)
  one(@CurrentUser() user: SignedInUser, @Param('id', pageIdPipe) id: number): Promise<PageDto> {
    return this.getPage.execute(user.id, id);
  }

  @ApiDoc({
    summary: 'Change some fields of a page',
    description: `Send only the fields to change; the others stay as they are. ${PAGE_PLAN_NOTE}`,
    body: updatePageSchema,
    ok: pageDtoSchema,
    errors: { 404: PageMessages.pageNotFound, 409: PageMessages.slugTaken },
  })
  @Put('pages/:id')
  @UseGuards(SignedInGuard)
  @RouteConfig({ bodyLimit: PAGE_BODY_LIMIT })
  async update(
    @CurrentUser() user: SignedInUser,
    @Param('id', pageIdPipe) id: number,
    @Body(new PartialZodPipe(updatePageSchema)) body: Partial<PageFields>,
  ): Promise<PageDto> {
    await this.updatePage.execute(user, id, body);
    return this.getPage.execute(user.id, id);
  }

  @ApiDoc({
    summary: 'Delete a page: it goes to the Trash for 14 days',
    description:
      'Its public address answers 404 at once and it takes no sign-ups; its slug stays held. POST /api/pages/{id}/restore brings it back; after 14 days it is removed for good with its leads, analytics and uploads.',
    ok: messageResponseSchema,
    errors: { 404: PageMessages.pageNotFound },
  })
  @Delete('pages/:id')
  @HttpCode(200)
  @UseGuards(SignedInGuard)
  async remove(@CurrentUser() user: SignedInUser, @Param('id', pageIdPipe) id: number): Promise<MessageResponse> {
    await this.trash.moveToTrash(user.id, id);
    return { message: TrashTexts.moved };
  }

  /** A Free owner with paused pages chooses the one page that stays live (the one live before is paused). */
  @ApiDoc({ summary: 'Choose the one page a Free plan keeps live', ok: keepPageLiveResponseSchema, errors: { 404: PageMessages.pageNotFound } })
  @Post('pages/:id/keep-live')
  @HttpCode(200)
  @UseGuards(SignedInGuard)
  keepLive(@CurrentUser() user: SignedInUser, @Param('id', pageIdPipe) id: number): Promise<KeepPageLiveResponse> {
    return this.keepPageLive.execute(user, id);
  }

  /** "Send me a test" in the editor: the delivery e-mail with the editor's current values, to the creator only. */
  @ApiDoc({
    summary: "Send yourself the page's delivery e-mail as a test",
    description:
      "Sends the e-mail a visitor gets with the page's file, with the values in the body (unsaved edits; a field left out is the saved page's), to the signed-in creator's own verified address only. At most 5 per 10 minutes.",
    body: testDeliveryEmailSchema,
    ok: messageResponseSchema,
    errors: {
      400: TEST_EMAIL_NEEDS_FILE,
      403: DeliveryEmailTexts.testNeedsVerified,
      404: PageMessages.pageNotFound,
      429: DeliveryEmailTexts.testTooMany,
    },
  })
  @Post('pages/:id/test-email')
  @HttpCode(200)
  @UseGuards(SignedInGuard)
  @RouteConfig({ bodyLimit: PAGE_BODY_LIMIT })
  sendTestEmail(
    @CurrentUser() user: SignedInUser,
    @Param('id', pageIdPipe) id: number,
    @Body(new ZodPipe(testDeliveryEmailSchema)) body: TestDeliveryEmailFields,
  ): Promise<MessageResponse> {
    return this.testEmail.execute(user, id, body);
  }

  /** A new webhook signing secret; the previous one signs beside it for 24 hours. Pro owners only. */
  @ApiDoc({ summary: "A new webhook signing secret (the old one signs beside it for 24 h; Pro)", ok: webhookEndpointSchema, errors: { 403: WebhookMessages.proOnly, 404: PageMessages.pageNotFound } })
  @Post('pages/:id/webhook/rotate-secret')
  @HttpCode(200)
  @UseGuards(SignedInGuard)
  async rotateWebhookSecret(@CurrentUser() user: SignedInUser, @Param('id', pageIdPipe) id: number): Promise<WebhookEndpointDto> {
    return toWebhookEndpointDto(await this.webhookEndpoint.rotateSecret(user, id), this.secrets);
  }

  /** Turns back on a webhook Plink turned off (410 Gone, or it kept failing). Pro owners only. */
  @ApiDoc({ summary: 'Turn back on a webhook Plink turned off (Pro)', ok: webhookEndpointSchema, errors: { 403: WebhookMessages.proOnly, 404: PageMessages.pageNotFound } })
  @Post('pages/:id/webhook/enable')
  @HttpCode(200)
  @UseGuards(SignedInGuard)
  async enableWebhook(@CurrentUser() user: SignedInUser, @Param('id', pageIdPipe) id: number): Promise<WebhookEndpointDto> {
    return toWebhookEndpointDto(await this.webhookEndpoint.enable(user, id), this.secrets);
  }

  /**
   * A page's public data (the SPA's public page route): counts one view (not for a HEAD probe or a
   * crawler). A paused page is a 404 that says so, and counts nothing.
   */
  @ApiDoc({
    summary: "A page's public data (counts one view)",
    description: 'What a visitor sees; never the owner\'s data. A HEAD probe or a crawler counts no view.',
    ok: publicPageSchema,
    errors: { 404: [PageMessages.pageNotFound, PageMessages.pagePaused] },
  })
  @Get('page/:slug')
  async publicPage(@Req() request: FastifyRequest, @Param('slug') slug: string): Promise<PublicPageDto> {
    const page = /^[A-Za-z0-9-]{1,60}$/.test(slug) ? await this.directory.findForVisitor(slug) : null;
    if (!page) throw new NotFoundException({ message: PageMessages.pageNotFound });
    if (page.paused) throw new NotFoundException({ message: PageMessages.pagePaused });
    if (request.method === 'GET') {
      this.views.count(page.id, request.headers['user-agent']);
      // The page's own address is not this API's: only the referrer and device tell where the visit came from.
      this.analytics.count(page.id, { ...visitOf(request), url: undefined }, request.hostname);
    }
    return page.public;
  }

  /** The template gallery of "Create page": every template with what its card shows. */
  @ApiDoc({
    summary: 'The page templates a new page can start from',
    description:
      "In the gallery's order, each with its name, category, one-sentence description, image and the template itself (`page`, as GET /api/templates/{slug} answers it), enough to draw a miniature of the page. Plink's example pages are among them.",
    ok: pageTemplateListSchema,
  })
  @Get('templates')
  templates(): Promise<PageTemplateEntryDto[]> {
    return this.pageTemplates.list();
  }

  /** A template's content as the starting values of a new page (the editor's `?template=`, "Use this template"). */
  @ApiDoc({ summary: "A page template's content, as the starting values of a new page", ok: pageTemplateSchema, errors: { 404: PageMessages.templateNotFound } })
  @Get('templates/:slug')
  async template(@Param('slug') slug: string): Promise<PageTemplateDto> {
    const template = isTemplateSlug(slug) ? await this.pageTemplates.find(slug) : null;
    if (!template) throw new NotFoundException({ message: PageMessages.templateNotFound });
    return template;
  }
}

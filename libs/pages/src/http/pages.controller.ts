import { Body, Controller, Delete, Get, HttpCode, NotFoundException, Param, Post, Put, Req, UseGuards } from '@nestjs/common';
import { RouteConfig } from '@nestjs/platform-fastify';
import type { FastifyRequest } from 'fastify';
import {
  PageMessages,
  createPageSchema,
  type KeepPageLiveResponse,
  updatePageSchema,
  type MessageResponse,
  type PageDto,
  type PageFields,
  type PageTemplateDto,
  type PublicPageDto,
  type WebhookEndpointDto,
  isExampleSlug,
} from '@plink/contracts';
import { CurrentUser, SignedInGuard, type User } from '@plink/identity';
import { ZodPipe } from '@plink/platform';
import { PagesDirectory } from '../directory/pages-directory';
import { toPageDto, toPageTemplate } from '../pages/page.dto';
import { PagesRepository } from '../pages/pages.repository';
import { CreatePageService } from '../use-cases/create-page.service';
import { DeletePageService } from '../use-cases/delete-page.service';
import { GetPageService } from '../use-cases/get-page.service';
import { KeepPageLiveService } from '../use-cases/keep-page-live.service';
import { ListPagesService } from '../use-cases/list-pages.service';
import { UpdatePageService } from '../use-cases/update-page.service';
import { ViewCounter } from '../views/view-counter';
import { WebhookSecretBox, toWebhookEndpointDto } from '../webhooks/webhook-endpoint';
import { WebhookEndpointService } from '../webhooks/webhook-endpoint.service';
import { PageIdPipe } from './page-id.pipe';
import { PartialZodPipe } from './partial-zod.pipe';
import { PAGE_BODY_LIMIT } from './route-body-limit';

/** The page calls of SPEC §7: a creator's own pages, and a page's public data. */
@Controller('api')
export class PagesController {
  constructor(
    private readonly listPages: ListPagesService,
    private readonly getPage: GetPageService,
    private readonly createPage: CreatePageService,
    private readonly updatePage: UpdatePageService,
    private readonly deletePage: DeletePageService,
    private readonly keepPageLive: KeepPageLiveService,
    private readonly directory: PagesDirectory,
    private readonly views: ViewCounter,
    private readonly webhookEndpoint: WebhookEndpointService,
    private readonly secrets: WebhookSecretBox,
    private readonly pages: PagesRepository,
  ) {}

  @Get('pages')
  @UseGuards(SignedInGuard)
  list(@CurrentUser() user: User): Promise<PageDto[]> {
    return this.listPages.execute(user.id);
  }

  @Post('pages')
  @HttpCode(201)
  @UseGuards(SignedInGuard)
  @RouteConfig({ bodyLimit: PAGE_BODY_LIMIT })
  async create(@CurrentUser() user: User, @Body(new ZodPipe(createPageSchema)) body: PageFields): Promise<PageDto> {
    // A new page has no conversions yet.
    return toPageDto(await this.createPage.execute(user, body), 0);
  }

  @Get('pages/:id')
  @UseGuards(SignedInGuard)
  one(@CurrentUser() user: User, @Param('id', PageIdPipe) id: number): Promise<PageDto> {
    return this.getPage.execute(user.id, id);
  }

  @Put('pages/:id')
  @UseGuards(SignedInGuard)
  @RouteConfig({ bodyLimit: PAGE_BODY_LIMIT })
  async update(
    @CurrentUser() user: User,
    @Param('id', PageIdPipe) id: number,
    @Body(new PartialZodPipe(updatePageSchema)) body: Partial<PageFields>,
  ): Promise<PageDto> {
    await this.updatePage.execute(user, id, body);
    return this.getPage.execute(user.id, id);
  }

  @Delete('pages/:id')
  @HttpCode(200)
  @UseGuards(SignedInGuard)
  async remove(@CurrentUser() user: User, @Param('id', PageIdPipe) id: number): Promise<MessageResponse> {
    await this.deletePage.execute(user.id, id);
    return { message: 'Page deleted' };
  }

  /** A Free owner with paused pages chooses the one page that stays live (the one live before is paused). */
  @Post('pages/:id/keep-live')
  @HttpCode(200)
  @UseGuards(SignedInGuard)
  keepLive(@CurrentUser() user: User, @Param('id', PageIdPipe) id: number): Promise<KeepPageLiveResponse> {
    return this.keepPageLive.execute(user, id);
  }

  /** A new webhook signing secret; the previous one signs beside it for 24 hours. Pro owners only. */
  @Post('pages/:id/webhook/rotate-secret')
  @HttpCode(200)
  @UseGuards(SignedInGuard)
  async rotateWebhookSecret(@CurrentUser() user: User, @Param('id', PageIdPipe) id: number): Promise<WebhookEndpointDto> {
    return toWebhookEndpointDto(await this.webhookEndpoint.rotateSecret(user, id), this.secrets);
  }

  /** Turns back on a webhook Plink turned off (410 Gone, or it kept failing). Pro owners only. */
  @Post('pages/:id/webhook/enable')
  @HttpCode(200)
  @UseGuards(SignedInGuard)
  async enableWebhook(@CurrentUser() user: User, @Param('id', PageIdPipe) id: number): Promise<WebhookEndpointDto> {
    return toWebhookEndpointDto(await this.webhookEndpoint.enable(user, id), this.secrets);
  }

  /**
   * A page's public data (the SPA's public page route): counts one view (not for a HEAD probe or a
   * crawler). A paused page is a 404 that says so, and counts nothing.
   */
  @Get('page/:slug')
  async publicPage(@Req() request: FastifyRequest, @Param('slug') slug: string): Promise<PublicPageDto> {
    const page = /^[A-Za-z0-9-]{1,60}$/.test(slug) ? await this.directory.findForVisitor(slug) : null;
    if (!page) throw new NotFoundException({ message: PageMessages.pageNotFound });
    if (page.paused) throw new NotFoundException({ message: PageMessages.pagePaused });
    if (request.method === 'GET') this.views.count(page.id, request.headers['user-agent']);
    return page.public;
  }

  /** An example page's content as the starting values of a new page (the editor's "Use this template"). */
  @Get('templates/:slug')
  async template(@Param('slug') slug: string): Promise<PageTemplateDto> {
    const page = isExampleSlug(slug) ? await this.pages.findBySlug(slug) : null;
    if (!page?.isExample) throw new NotFoundException({ message: PageMessages.templateNotFound });
    return toPageTemplate(page);
  }
}

import { Controller, Get, Inject, UseGuards } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { v1PageListSchema, type V1PageDto } from '@plink/contracts';
import { APP_CONFIG, type AppConfig } from '@plink/config';
import { ApiDoc, ApiTokenGuard, CurrentUser, type SignedInUser } from '@plink/http';
import { PagesRepository } from '../model/pages.repository';

/** `GET /api/v1/pages`: the token's user's pages, for an automation tool's page picker. */
@ApiTags('API v1')
@Controller('api/v1')
@UseGuards(ApiTokenGuard)
export class PagesV1Controller {
  constructor(
    private readonly pages: PagesRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @ApiDoc({ summary: "The token's user's pages, newest first", ok: v1PageListSchema })
  @Get('pages')
  async list(@CurrentUser() user: SignedInUser): Promise<V1PageDto[]> {
    const pages = await this.pages.listByOwner(user.id);
    return pages.map((page) => ({
      id: page.id,
      slug: page.slug,
      title: page.title,
      // The address a visitor opens (the lead.created event's page.url).
      url: `${this.config.publicOrigin}/${page.slug}`,
      createdAt: page.createdAt.toISOString(),
    }));
  }
}

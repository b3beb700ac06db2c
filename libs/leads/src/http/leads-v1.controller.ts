import { Body, Controller, Get, HttpCode, Inject, NotFoundException, Param, Post, Query, Res, UseGuards } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { EntityManager } from '@mikro-orm/postgresql';
import { ApiQuery, ApiTags } from '@nestjs/swagger';
import {
  ApiTokenMessages,
  LeadMessages,
  createV1LeadSchema,
  leadCreatedData,
  v1CreatedLeadSchema,
  v1LeadListSchema,
  v1LeadsQuerySchema,
  type CreateV1LeadRequest,
  type V1CreatedLeadDto,
  type V1LeadDto,
  type V1LeadsQuery,
} from '@plink/contracts';
import { APP_CONFIG, type AppConfig } from '@plink/config';
import { ApiDoc, ApiTokenGuard, CurrentUser, IdParamPipe, ZodPipe, type SignedInUser } from '@plink/http';
import { DoubleOptInService } from '../double-opt-in/double-opt-in.service';
import { CaptureLeadService } from '../use-cases/capture-lead.service';

interface LeadRow {
  id: number;
  email: string;
  created_at: Date;
  consent_at: Date | null;
  referrer: string | null;
  utm_source: string | null;
  utm_medium: string | null;
  utm_campaign: string | null;
  device: string | null;
  page_id: number;
  slug: string;
  title: string | null;
}

/** `:id` of a page: 404 for one that cannot exist, as for another user's. */
const pageIdPipe = new IdParamPipe(ApiTokenMessages.pageNotFound);

const LEAD_COLUMNS = `l.id, l.email, l.created_at, l.consent_at, l.referrer, l.utm_source, l.utm_medium, l.utm_campaign, l.device,
  f.page_id, f.slug, f.public->>'title' as title`;

/**
 * The leads part of `/api/v1`: a token's user's leads (an automation tool's polling trigger and sample data),
 * each exactly the `data` of its `lead.created` webhook, and a lead sent by the tool. Another user's page is
 * 404, as if it did not exist.
 */
@ApiTags('API v1')
@Controller('api/v1')
@UseGuards(ApiTokenGuard)
export class LeadsV1Controller {
  constructor(
    private readonly em: EntityManager,
    private readonly capture: CaptureLeadService,
    private readonly optIn: DoubleOptInService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @ApiDoc({
    summary: "The token's user's leads, newest first",
    description:
      'Each item is exactly the `data` object of the `lead.created` webhook. Leads waiting for their double opt-in confirmation are not listed (their webhook is not sent yet either).',
    ok: v1LeadListSchema,
    errors: { 400: 'Invalid request', 404: ApiTokenMessages.pageNotFound },
  })
  @ApiQuery({ name: 'page_id', required: false, schema: { type: 'integer' }, description: "Only this page's leads" })
  @ApiQuery({ name: 'limit', required: false, schema: { type: 'integer', minimum: 1, maximum: 100, default: 50 } })
  @Get('leads')
  async list(@CurrentUser() user: SignedInUser, @Query(new ZodPipe(v1LeadsQuerySchema)) query: V1LeadsQuery): Promise<V1LeadDto[]> {
    if (query.page_id !== undefined) await this.ownedPageOrFail(user.id, query.page_id);
    const rows: LeadRow[] = await this.em.execute(
      `select ${LEAD_COLUMNS}
         from leads.leads l join leads.page_facts f on f.page_id = l.page_id
        where f.owner_id = ? and not f.deleted and l.status = 'confirmed' ${query.page_id !== undefined ? 'and l.page_id = ?' : ''}
        order by l.created_at desc, l.id desc limit ?`,
      query.page_id !== undefined ? [user.id, query.page_id, query.limit] : [user.id, query.limit],
    );
    return rows.map((row) => this.toDto(row));
  }

  @ApiDoc({
    summary: 'Add a lead to a page',
    description:
      "Stored as the page's form stores one (its file e-mail, webhook and hooks; on a double opt-in page the confirmation e-mail), without the form's bot checks. 201 `created: true` for a new lead; 200 `created: false` with the lead when the address already is one (nothing is sent again).",
    body: createV1LeadSchema,
    ok: { status: 201, schema: v1CreatedLeadSchema },
    errors: { 400: 'Please enter a valid email', 404: [ApiTokenMessages.pageNotFound, LeadMessages.pagePaused] },
  })
  @Post('pages/:id/leads')
  @HttpCode(201)
  async create(
    @CurrentUser() user: SignedInUser,
    @Param('id', pageIdPipe) pageId: number,
    @Body(new ZodPipe(createV1LeadSchema)) body: CreateV1LeadRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<V1CreatedLeadDto> {
    const page = await this.optIn.pageOf(this.em.fork(), pageId);
    if (!page || page.ownerId !== user.id) throw new NotFoundException({ message: ApiTokenMessages.pageNotFound });
    const created = await this.capture.captureFromApi(page, body.email, body.consent === true);
    const rows: LeadRow[] = await this.em
      .fork()
      .execute(`select ${LEAD_COLUMNS} from leads.leads l join leads.page_facts f on f.page_id = l.page_id where l.page_id = ? and l.email_lower = ?`, [
        pageId,
        body.email.toLowerCase(),
      ]);
    if (rows.length === 0) throw new NotFoundException({ message: ApiTokenMessages.pageNotFound });
    if (!created) reply.status(200);
    return { created, lead: this.toDto(rows[0]) };
  }

  private async ownedPageOrFail(userId: number, pageId: number): Promise<void> {
    const rows: unknown[] = await this.em.execute('select 1 from leads.page_facts where page_id = ? and owner_id = ? and not deleted', [pageId, userId]);
    if (rows.length === 0) throw new NotFoundException({ message: ApiTokenMessages.pageNotFound });
  }

  private toDto(row: LeadRow): V1LeadDto {
    return leadCreatedData(
      {
        id: Number(row.id),
        email: row.email,
        createdAt: new Date(row.created_at),
        consentAt: row.consent_at ? new Date(row.consent_at) : null,
        source: { referrer: row.referrer, utmSource: row.utm_source, utmMedium: row.utm_medium, utmCampaign: row.utm_campaign, device: row.device },
      },
      { id: Number(row.page_id), slug: row.slug, title: row.title ?? '', url: `${this.config.publicOrigin}/${row.slug}` },
    );
  }
}

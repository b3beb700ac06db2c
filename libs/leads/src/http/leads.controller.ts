import { Body, Controller, Get, HttpCode, Param, Post, Req, Res, UseGuards } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { PageStatsDto, SubmitLeadResponse } from '@plink/contracts';
import { CurrentUser, SignedInGuard, type User } from '@plink/identity';
import { CaptureLeadService } from '../use-cases/capture-lead.service';
import { ExportLeadsService } from '../use-cases/export-leads.service';
import { PageStatsService } from '../use-cases/page-stats.service';

/** The leads calls of SPEC §7: a visitor's submission, and a creator's stats and export. */
@Controller('api')
export class LeadsController {
  constructor(
    private readonly capture: CaptureLeadService,
    private readonly stats: PageStatsService,
    private readonly exporter: ExportLeadsService,
  ) {}

  @Post('page/:slug/submit')
  @HttpCode(200)
  async submit(@Req() request: FastifyRequest, @Param('slug') slug: string, @Body() body: unknown): Promise<SubmitLeadResponse> {
    const page = await this.capture.findPage(slug);
    return this.capture.execute(page, body, request.ip);
  }

  @Get('pages/:id/stats')
  @UseGuards(SignedInGuard)
  pageStats(@CurrentUser() user: User, @Param('id') id: string): Promise<PageStatsDto> {
    return this.stats.execute(id, user.id);
  }

  @Get('pages/:id/export')
  @UseGuards(SignedInGuard)
  async export(@CurrentUser() user: User, @Param('id') id: string, @Res() reply: FastifyReply): Promise<void> {
    const { filename, stream } = await this.exporter.execute(id, user.id);
    void reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="${filename}"`)
      .header('cache-control', 'no-store')
      .send(stream);
  }
}

import { Controller, Get, Param, Res, UseGuards } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import type { PageStatsDto } from '@plink/contracts';
import { CurrentUser, SignedInGuard, type User } from '@plink/identity';
import { ExportLeadsService } from '../use-cases/export-leads.service';
import { PageStatsService } from '../use-cases/page-stats.service';

/** The creator's leads calls of SPEC §7: stats and export (a visitor's submission: LeadSubmitRoute). */
@Controller('api')
export class LeadsController {
  constructor(
    private readonly stats: PageStatsService,
    private readonly exporter: ExportLeadsService,
  ) {}

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

import { Controller, Get, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { HealthService, type HealthReport } from '@plink/platform';

@Controller()
export class HealthController {
  constructor(private readonly health: HealthService) {}

  @Get(['health', 'api/health'])
  async check(@Res({ passthrough: true }) reply: FastifyReply): Promise<HealthReport> {
    const report = await this.health.report('gateway');
    void reply.status(report.status === 'ok' ? 200 : 503);
    return report;
  }
}

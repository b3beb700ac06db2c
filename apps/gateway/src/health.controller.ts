import { Controller, Get, Res } from '@nestjs/common';
import { RouteConfig } from '@nestjs/platform-fastify';
import type { FastifyReply } from 'fastify';
import { ApiResponse, ApiTags } from '@nestjs/swagger';
import { healthReportSchema, livenessReportSchema } from '@plink/contracts';
import { HealthService, type HealthReport, type LivenessReport } from '@plink/platform';
import { ApiDoc } from '@plink/http';

/**
 * `/health/live`: 200 while the process answers (restart it when this fails); `/health/ready` and
 * `/health`: 200 when PostgreSQL and Redis answer, else 503 with the failing check `down` (send no
 * traffic here meanwhile). Probes are logged only when they fail or are slow.
 */
@ApiTags('Operations')
@Controller()
export class HealthController {
  constructor(private readonly health: HealthService) {}

  @ApiDoc({ summary: 'Liveness: 200 while the process answers (no dependency is asked)', ok: livenessReportSchema })
  @Get(['health/live', 'api/health/live'])
  @RouteConfig({ quietAccessLog: true })
  live(): LivenessReport {
    return this.health.live('gateway');
  }

  @ApiDoc({
    summary: 'Readiness: 200 when PostgreSQL and Redis answer, else 503 with the failing check `down`',
    ok: healthReportSchema,
    errors: {},
  })
  @ApiResponse({ status: 503, description: 'Not ready (a dependency is down, or the process is stopping)', standardSchema: healthReportSchema })
  @Get(['health', 'api/health', 'health/ready', 'api/health/ready'])
  @RouteConfig({ quietAccessLog: true })
  async check(@Res({ passthrough: true }) reply: FastifyReply): Promise<HealthReport> {
    const report = await this.health.report('gateway');
    void reply.status(report.status === 'ok' ? 200 : 503);
    return report;
  }
}

import type { LoggerService } from '@nestjs/common';
import { getLogger } from './logger';

/** Nest's start-up chatter (one line per module and route): debug level, not info. */
const STARTUP_CONTEXTS = new Set(['InstanceLoader', 'RoutesResolver', 'RouterExplorer', 'NestFactory']);

/** Routes Nest's own log lines through pino. */
export class PinoNestLogger implements LoggerService {
  log(message: unknown, context?: string) {
    if (context && STARTUP_CONTEXTS.has(context)) getLogger().debug({ context }, String(message));
    else getLogger().info({ context }, String(message));
  }
  error(message: unknown, trace?: string, context?: string) {
    getLogger().error({ context, trace }, String(message));
  }
  warn(message: unknown, context?: string) {
    getLogger().warn({ context }, String(message));
  }
  debug(message: unknown, context?: string) {
    getLogger().debug({ context }, String(message));
  }
  verbose(message: unknown, context?: string) {
    getLogger().trace({ context }, String(message));
  }
  fatal(message: unknown, context?: string) {
    getLogger().fatal({ context }, String(message));
  }
}

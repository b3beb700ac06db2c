import { ExecutionContext, Injectable } from '@nestjs/common';
import { AuthGuard } from '@nestjs/passport';
import type { FastifyRequest } from 'fastify';
import { loginSchema } from '@plink/contracts';
import { ZodPipe } from '@plink/http';
import { AuthRateLimits } from '../use-cases/auth-rate-limits';

const loginBody = new ZodPipe(loginSchema);

/**
 * The login call's guard: the per-address limit, then the shared schema (so passport only ever
 * sees a valid e-mail and password), then passport's local strategy.
 */
@Injectable()
export class LoginGuard extends AuthGuard('local') {
  constructor(private readonly limits: AuthRateLimits) {
    super();
  }

  override async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    await this.limits.perAddress('login', request.ip);
    request.body = loginBody.transform(request.body);
    return (await super.canActivate(context)) as boolean;
  }
}

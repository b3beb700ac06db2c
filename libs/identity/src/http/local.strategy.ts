import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import type { FastifyRequest } from 'fastify';
import { Strategy } from 'passport-local';
import type { User } from '../users/user.entity';
import { LogInService } from '../use-cases/log-in.service';

/** Passport's local strategy: e-mail + password, checked by {@link LogInService}. */
@Injectable()
export class LocalStrategy extends PassportStrategy(Strategy, 'local') {
  constructor(private readonly logIn: LogInService) {
    super({ usernameField: 'email', passwordField: 'password', session: false, passReqToCallback: true });
  }

  /** The request comes along for its address: wrong passwords are counted per e-mail and address. */
  validate(request: FastifyRequest, email: string, password: string): Promise<User> {
    return this.logIn.verifyCredentials({ email, password }, request.ip);
  }
}

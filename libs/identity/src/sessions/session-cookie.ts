import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppConfig } from '@plink/config';
import { SESSION_COOKIE, SESSION_TTL_SECONDS } from './session.store';

export function readSessionId(request: FastifyRequest): string | undefined {
  return (request as FastifyRequest & { cookies?: Record<string, string | undefined> }).cookies?.[SESSION_COOKIE];
}

export function setSessionCookie(reply: FastifyReply, config: AppConfig, sessionId: string): void {
  void (reply as FastifyReply & { setCookie: Function }).setCookie(SESSION_COOKIE, sessionId, {
    httpOnly: true,
    sameSite: 'lax',
    secure: config.secureCookies,
    path: '/',
    maxAge: SESSION_TTL_SECONDS,
  });
}

export function clearSessionCookie(reply: FastifyReply, config: AppConfig): void {
  void (reply as FastifyReply & { clearCookie: Function }).clearCookie(SESSION_COOKIE, {
    httpOnly: true,
    sameSite: 'lax',
    secure: config.secureCookies,
    path: '/',
  });
}

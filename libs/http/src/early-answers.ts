import type { IncomingMessage, ServerResponse } from 'node:http';
import { Injectable } from '@nestjs/common';

/**
 * Answers a request straight from the HTTP server, before the web framework sees it: returns true when it
 * wrote the whole answer, false to let the request through to the router.
 */
export type EarlyAnswer = (request: IncomingMessage, response: ServerResponse) => boolean;

/**
 * The few answers the HTTP server gives before Fastify and Nest route a request. They are replays of answers
 * the regular routes built and cached (a landing page already rendered): for those, the router's hooks
 * (request ids, ORM context, cookies, CSRF, compression, access log) would do nothing useful but cost about
 * half the CPU of the answer. Anything not ready to be replayed as it is goes the regular way.
 */
@Injectable()
export class EarlyAnswers {
  private readonly answers: EarlyAnswer[] = [];

  add(answer: EarlyAnswer): void {
    this.answers.push(answer);
  }

  /** True when one of the early answers answered the request. */
  answer(request: IncomingMessage, response: ServerResponse): boolean {
    for (const answer of this.answers) if (answer(request, response)) return true;
    return false;
  }
}

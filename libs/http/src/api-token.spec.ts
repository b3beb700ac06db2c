import type { FastifyRequest } from 'fastify';
import { bearerOf } from './api-token';

const token = `plk_${'aB3'.repeat(14)}x`;
const withHeader = (authorization?: string) => ({ headers: authorization === undefined ? {} : { authorization } }) as FastifyRequest;

describe('bearerOf', () => {
  it('reads an API token from Authorization: Bearer', () => {
    expect(bearerOf(withHeader(`Bearer ${token}`))).toBe(token);
    expect(bearerOf(withHeader(`bearer ${token} `))).toBe(token);
  });

  it('takes nothing else for a token (no lookup for them)', () => {
    for (const header of [undefined, '', token, `Basic ${token}`, `Bearer ${token}x`, 'Bearer plk_short', `Bearer ${token.replace('x', '-')}`, `Bearer ${token} extra`]) {
      expect(bearerOf(withHeader(header))).toBeNull();
    }
  });
});

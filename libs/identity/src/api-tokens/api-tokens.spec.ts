import { API_TOKEN_PATTERN } from '@plink/contracts';
import { newApiToken } from './api-tokens';

describe('newApiToken', () => {
  it('makes plk_ and 43 base62 characters, never the same twice, with every character in use', () => {
    const tokens = Array.from({ length: 2_000 }, () => newApiToken());
    for (const token of tokens) expect(token).toMatch(API_TOKEN_PATTERN);
    expect(new Set(tokens).size).toBe(tokens.length);
    const seen = new Set(tokens.join('').replaceAll('plk_', ''));
    expect(seen.size).toBe(62);
  });
});

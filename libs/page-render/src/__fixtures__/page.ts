import type { PublicPageDto } from '@plink/contracts';
import { makePublicPageDto } from '@plink/contracts/testing';

/** The photo guide: a new page with its own texts and colours, as its visitors get it; overrides replace fields. */
export function makePage(overrides: Partial<PublicPageDto> = {}): PublicPageDto {
  return makePublicPageDto({
    slug: 'photo-guide',
    title: 'The Free Photo Guide',
    subtext: '<p>Ten tips for better photos.</p>',
    author: 'Ann Adams',
    buttonText: 'Send me the guide',
    buttonColor: '#1d4ed8',
    backgroundColor: '#f3f4f6',
    ...overrides,
  });
}

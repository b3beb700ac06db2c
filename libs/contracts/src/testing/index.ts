/*
 * Test data shared by the projects' tests (`@plink/contracts/testing`). Built with the rest of the contracts,
 * but only test code may import it: the lint rule on imports refuses it anywhere else, and the SPA's build
 * stops if its bundle reaches for it.
 */
import { pageFieldsSchema, type PageDto, type PublicPageDto, type StoredPageFields } from '../http/pages';

/**
 * A page created with nothing but its slug: each field at the page schema's default, null where the schema has
 * none. Read from the schema itself, so a field added there with a default needs no change here.
 */
export function newPageFields(slug: string): StoredPageFields {
  const filled: Record<string, unknown> = pageFieldsSchema.parse({ slug });
  const fields = Object.keys(pageFieldsSchema.shape).map((name) => [name, filled[name] ?? null]);
  return Object.fromEntries(fields) as StoredPageFields;
}

const CREATED_AT = '2025-02-01T10:00:00.000Z';

/** A new page as its owner sees it (GET /api/pages), without views or leads; overrides replace fields. */
export function makePageDto(overrides: Partial<PageDto> = {}): PageDto {
  return {
    id: 1,
    userId: 1,
    ...newPageFields('free-guide'),
    views: 0,
    conversions: 0,
    pending: 0,
    conversionsWithoutVisit: 0,
    paused: false,
    createdAt: CREATED_AT,
    updatedAt: CREATED_AT,
    ...overrides,
  };
}

/**
 * A new page as a visitor gets it (GET /api/page/{slug}): the same fields less the owner's own (file, webhook,
 * author settings), and no author line; overrides replace fields.
 */
export function makePublicPageDto(overrides: Partial<PublicPageDto> = {}): PublicPageDto {
  const { fileUrl: _file, webhookUrl: _webhook, showUsername: _showUsername, authorName: _authorName, ...shown } = newPageFields('free-guide');
  return { ...shown, author: null, ...overrides };
}

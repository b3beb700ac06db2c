import { z } from 'zod';
import type { LeadCreatedEvent } from './webhooks';
import type { Same } from './api-schemas';

/*
 * The versioned API for automation tools (`/api/v1`, docs/http-api.md): API tokens (made in Settings, with the
 * session), and the calls a token may make. Its paths, fields and messages are a contract with the published
 * Zapier, Make and n8n apps: never rename one; add beside it.
 */

export const ApiTokenMessages = {
  /** A missing, malformed, unknown or revoked token on /api/v1. */
  invalidToken: 'Your API token is not valid.',
  /** Past API_TOKEN_RATE_LIMIT_PER_MINUTE requests of one token in a minute. */
  tooManyRequests: 'Too many API requests. Please wait a minute and try again.',
  tokenNotFound: 'API token not found',
  nameRequired: 'Please give the token a name.',
  nameTooLong: 'The name can be at most 100 characters.',
  /** Hook subscriptions need Pro (the page webhook's rule, in the API's words). */
  hooksProOnly: 'Webhooks are part of Plink Pro.',
  hookNotFound: 'Hook not found',
  pageNotFound: 'Page not found',
  invalidTargetUrl: 'Please enter a valid http:// or https:// URL.',
  unknownEvent: 'The only event is lead.created.',
} as const;

/** The prefix of every API token (`plk_` and 43 base62 characters: 256 random bits). */
export const API_TOKEN_PREFIX = 'plk_';
/** The shape of a token: anything else is refused before a lookup. */
export const API_TOKEN_PATTERN = /^plk_[0-9A-Za-z]{43}$/;
/** Requests one token may make in a minute (then 429 with Retry-After). */
export const API_TOKEN_REQUESTS_PER_MINUTE = 600;
/** Most leads `GET /api/v1/leads` answers at once, and how many when `limit` is left out. */
export const V1_LEADS_MAX_LIMIT = 100;
export const V1_LEADS_DEFAULT_LIMIT = 50;
/** The events a hook may subscribe to. */
export const HOOK_EVENTS = ['lead.created'] as const;
export type HookEvent = (typeof HOOK_EVENTS)[number];

const isoDate = () => z.string().meta({ format: 'date-time' });
const trimmed = (s: string) => s.trim();

// ---- requests -----------------------------------------------------------------------------------------------

export const createApiTokenSchema = z
  .object({
    name: z
      .string({ error: ApiTokenMessages.nameRequired })
      .transform(trimmed)
      .pipe(z.string().min(1, ApiTokenMessages.nameRequired).max(100, ApiTokenMessages.nameTooLong).regex(/^[^\p{Cc}]*$/u, ApiTokenMessages.nameRequired)),
  })
  .meta({ id: 'CreateApiTokenRequest' });
export type CreateApiTokenRequest = z.infer<typeof createApiTokenSchema>;

export const createV1LeadSchema = z
  .object({
    email: z.string({ error: 'Please enter a valid email' }).transform(trimmed).pipe(z.email('Please enter a valid email').max(254, 'Please enter a valid email')),
    consent: z.boolean().optional(),
  })
  .meta({ id: 'CreateV1LeadRequest' });
export type CreateV1LeadRequest = z.infer<typeof createV1LeadSchema>;

export const v1LeadsQuerySchema = z.object({
  page_id: z.coerce.number().int().positive().optional(),
  limit: z.coerce.number().int().min(1).max(V1_LEADS_MAX_LIMIT).default(V1_LEADS_DEFAULT_LIMIT),
});
export type V1LeadsQuery = z.infer<typeof v1LeadsQuerySchema>;

export const createHookSchema = z
  .object({
    event: z.enum(HOOK_EVENTS, { error: ApiTokenMessages.unknownEvent }),
    target_url: z
      .string({ error: ApiTokenMessages.invalidTargetUrl })
      .transform(trimmed)
      .pipe(z.string().min(1, ApiTokenMessages.invalidTargetUrl).max(2048, ApiTokenMessages.invalidTargetUrl)),
    page_id: z.number().int().positive().nullable().optional(),
  })
  .meta({ id: 'CreateHookRequest' });
export type CreateHookRequest = z.infer<typeof createHookSchema>;

export const hooksQuerySchema = z.object({ target_url: z.string().max(2048).optional() });

// ---- answers ------------------------------------------------------------------------------------------------

/** A token as listed (never the token itself). */
export interface ApiTokenDto {
  id: number;
  name: string;
  createdAt: string;
  lastUsedAt: string | null;
}

/** POST /api/tokens: the token, shown this once. */
export interface CreatedApiTokenDto {
  id: number;
  name: string;
  token: string;
  createdAt: string;
}

export interface V1MeDto {
  id: number;
  email: string;
  username: string;
  plan: 'free' | 'pro';
}

export interface V1PageDto {
  id: number;
  slug: string;
  title: string;
  url: string;
  createdAt: string;
}

/** A lead as the API gives it: exactly the `data` of its `lead.created` webhook. */
export type V1LeadDto = LeadCreatedEvent['data'];

export interface V1CreatedLeadDto {
  created: boolean;
  lead: V1LeadDto;
}

export interface HookDto {
  id: number;
  event: HookEvent;
  target_url: string;
  page_id: number | null;
}

/** POST /api/v1/hooks: the hook with its signing secret (shown this once). */
export interface CreatedHookDto extends HookDto {
  secret: string;
}

/** One delivery of a hook, for Settings → Automations. */
export interface HookDeliveryDto {
  id: string;
  leadId: number;
  createdAt: string;
  status: 'pending' | 'delivered' | 'failing' | 'failed';
  attempts: { at: string; status: number | null; error: string | null; durationMs: number }[];
}

/** GET /api/hooks (session): the account's hook subscriptions with their recent deliveries. */
export interface HookWithDeliveriesDto extends HookDto {
  createdAt: string;
  deliveries: HookDeliveryDto[];
}

export const apiTokenSchema = z.object({ id: z.number().int(), name: z.string(), createdAt: isoDate(), lastUsedAt: isoDate().nullable() }).meta({ id: 'ApiToken' });
export const apiTokenListSchema = z.array(apiTokenSchema).meta({ id: 'ApiTokenList' });
export const createdApiTokenSchema = z
  .object({ id: z.number().int(), name: z.string(), token: z.string().meta({ description: '`plk_…`, shown this once' }), createdAt: isoDate() })
  .meta({ id: 'CreatedApiToken' });

export const v1MeSchema = z.object({ id: z.number().int(), email: z.string(), username: z.string(), plan: z.enum(['free', 'pro']) }).meta({ id: 'V1Me' });
export const v1PageSchema = z.object({ id: z.number().int(), slug: z.string(), title: z.string(), url: z.string(), createdAt: isoDate() }).meta({ id: 'V1Page' });
export const v1PageListSchema = z.array(v1PageSchema).meta({ id: 'V1PageList' });

const nullableText = z.string().nullable();
export const v1LeadSchema = z
  .object({
    id: z.number().int(),
    email: z.string(),
    createdAt: isoDate(),
    consentAt: isoDate().nullable(),
    page: z.object({ id: z.number().int(), slug: z.string(), title: z.string(), url: z.string() }),
    source: z.object({ referrer: nullableText, utmSource: nullableText, utmMedium: nullableText, utmCampaign: nullableText, device: nullableText }),
  })
  .meta({ id: 'V1Lead', description: 'Exactly the `data` object of the `lead.created` webhook.' });
export const v1LeadListSchema = z.array(v1LeadSchema).meta({ id: 'V1LeadList' });
export const v1CreatedLeadSchema = z.object({ created: z.boolean(), lead: v1LeadSchema }).meta({ id: 'V1CreatedLead' });

const hookFields = {
  id: z.number().int(),
  event: z.enum(HOOK_EVENTS),
  target_url: z.string(),
  page_id: z.number().int().nullable().meta({ description: 'null: every page of the account' }),
};
export const hookSchema = z.object(hookFields).meta({ id: 'Hook' });
export const hookListSchema = z.array(hookSchema).meta({ id: 'HookList' });
export const createdHookSchema = z
  .object({ ...hookFields, secret: z.string().meta({ description: '`whsec_…`: the Standard Webhooks signing secret of this hook' }) })
  .meta({ id: 'CreatedHook' });
const hookDeliverySchema = z.object({
  id: z.string(),
  leadId: z.number().int(),
  createdAt: isoDate(),
  status: z.enum(['pending', 'delivered', 'failing', 'failed']),
  attempts: z.array(z.object({ at: isoDate(), status: z.number().int().nullable(), error: z.string().nullable(), durationMs: z.number().int() })),
});
export const hooksWithDeliveriesSchema = z
  .array(z.object({ ...hookFields, createdAt: isoDate(), deliveries: z.array(hookDeliverySchema) }))
  .meta({ id: 'HooksWithDeliveries' });

type Check<T extends true> = T;
type Out<S extends z.ZodType> = z.output<S>;
export type ApiV1SchemaChecks = [
  Check<Same<Out<typeof apiTokenSchema>, ApiTokenDto>>,
  Check<Same<Out<typeof createdApiTokenSchema>, CreatedApiTokenDto>>,
  Check<Same<Out<typeof v1MeSchema>, V1MeDto>>,
  Check<Same<Out<typeof v1PageSchema>, V1PageDto>>,
  Check<Same<Out<typeof v1LeadSchema>, V1LeadDto>>,
  Check<Same<Out<typeof v1CreatedLeadSchema>, V1CreatedLeadDto>>,
  Check<Same<Out<typeof hookSchema>, HookDto>>,
  Check<Same<Out<typeof createdHookSchema>, CreatedHookDto>>,
  Check<Same<Out<typeof hooksWithDeliveriesSchema>[number], HookWithDeliveriesDto>>,
];

/**
 * The `data` of a `lead.created` event from a lead and its page: the one builder the webhook body and the
 * API's leads share, so their keys cannot drift apart.
 */
export function leadCreatedData(
  lead: { id: number; email: string; createdAt: Date; consentAt: Date | null; source?: LeadCreatedEvent['data']['source'] | null },
  page: { id: number; slug: string; title: string; url: string },
): V1LeadDto {
  return {
    id: lead.id,
    email: lead.email,
    createdAt: lead.createdAt.toISOString(),
    consentAt: lead.consentAt ? lead.consentAt.toISOString() : null,
    page: { id: page.id, slug: page.slug, title: page.title, url: page.url },
    source: lead.source ?? { referrer: null, utmSource: null, utmMedium: null, utmCampaign: null, device: null },
  };
}

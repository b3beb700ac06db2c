import { readFileSync } from 'node:fs';
import type { OpenAPIObject } from '@nestjs/swagger';
import { ApiTokenMessages, BillingMessages, CommonMessages, IdentityMessages, type Same, type healthReportSchema, type livenessReportSchema } from '@plink/contracts';
import type { HealthReport, LivenessReport } from '@plink/platform';
import type { z } from 'zod';
import { OPENAPI_FILE, generateApiDocument, renderApiDocument } from './api-docs';

// The answers' schemas that live beside types of other libs describe them exactly (a compile error otherwise).
export type GatewaySchemaChecks = [
  Same<z.output<typeof healthReportSchema>, HealthReport> extends true ? true : never,
  Same<z.output<typeof livenessReportSchema>, LivenessReport> extends true ? true : never,
];

type Operation = { operationId: string; summary?: string; security?: unknown[]; requestBody?: any; responses: Record<string, any> };

function operations(document: OpenAPIObject): Array<{ method: string; path: string; op: Operation }> {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item as Record<string, Operation>).map(([method, op]) => ({ method, path, op })),
  );
}

const messagesOf = (response: any): string[] => {
  const media = response?.content?.['application/json'];
  return media?.examples ? Object.values(media.examples as Record<string, { value: { message: string } }>).map((e) => e.value.message) : media?.example ? [media.example.message] : [];
};

/**
 * Each call's operationId as published. Clients generated from the document name their calls by it, so it
 * must not change when a handler is renamed or a route's description moves: a route whose default id
 * (`<Controller>_<method>`) differs from its published one states it (`@ApiDoc({ operationId })`). A new call
 * adds its line; a call taken away removes its line, knowingly.
 */
const PUBLISHED_OPERATION_IDS: Record<string, string> = {
  'DELETE /api/account': 'AccountDataController_remove',
  'GET /api/account/export': 'AccountDataController_latestExport',
  'GET /api/account/export/{id}': 'AccountDataController_exportFile',
  'POST /api/account/export': 'AccountDataController_startExport',
  'GET /api/pages/daily-views': 'PagesController_dailyViewsOf',
  'GET /api/embed/{slug}': 'EmbedController_page',
  'POST /api/embed/{slug}/view': 'EmbedController_view',
  'GET /embed.js': 'get_embed_js',
  'GET /embed/{file}': 'get_embed_file',
  'GET /admin/queues': 'get_admin_queues',
  'POST /api/account/email': 'IdentityController_requestEmailChange',
  'POST /api/account/email/cancel': 'IdentityController_cancelEmailChange',
  'POST /api/account/email/confirm': 'IdentityController_confirmEmailChange',
  'POST /api/account/username': 'IdentityController_updateUsername',
  'POST /api/admin/reset-subscription-status': 'BillingController_resetStatus',
  'POST /api/billing-portal': 'BillingController_billingPortal',
  'GET /api/hooks': 'HooksController_list',
  'DELETE /api/hooks/{id}': 'HooksController_remove',
  'GET /api/tokens': 'ApiTokensController_list',
  'POST /api/tokens': 'ApiTokensController_create',
  'DELETE /api/tokens/{id}': 'ApiTokensController_revoke',
  'GET /api/v1/hooks': 'HooksV1Controller_list',
  'POST /api/v1/hooks': 'HooksV1Controller_create',
  'DELETE /api/v1/hooks/{id}': 'HooksV1Controller_remove',
  'POST /api/v1/hooks/{id}/rotate-secret': 'HooksV1Controller_rotateSecret',
  'GET /api/v1/leads': 'LeadsV1Controller_list',
  'GET /api/v1/me': 'MeV1Controller_me',
  'GET /api/v1/pages': 'PagesV1Controller_list',
  'POST /api/v1/pages/{id}/leads': 'LeadsV1Controller_create',
  'POST /api/cancel-subscription': 'BillingController_cancel',
  'POST /api/check-subscription-status': 'BillingController_checkStatus',
  'POST /api/create-subscription': 'BillingController_createSubscription',
  'POST /api/forgot-password': 'IdentityController_forgotPassword',
  'GET /api/health': 'HealthController_check[1]',
  'GET /api/health/live': 'HealthController_live[1]',
  'GET /api/health/ready': 'HealthController_check[3]',
  'POST /api/login': 'IdentityController_login',
  'POST /api/login/resend-verification': 'IdentityController_resendVerificationAtLogin',
  'POST /api/logout': 'IdentityController_logout',
  'GET /api/page/{slug}': 'PagesController_publicPage',
  'POST /api/page/{slug}/submit': 'post_api_page_slug_submit',
  'POST /api/confirm/{token}': 'ConfirmLeadController_confirm',
  'GET /api/pages': 'PagesController_list',
  'POST /api/pages': 'PagesController_create',
  'GET /api/pages/{id}': 'PagesController_one',
  'GET /api/slug-availability': 'PagesController_slugAvailability',
  'PUT /api/pages/{id}': 'PagesController_update',
  'DELETE /api/pages/{id}': 'PagesController_remove',
  'GET /api/pages/{id}/export': 'LeadsController_export',
  'GET /api/pages/{id}/leads': 'LeadsController_pageLeads',
  'DELETE /api/pages/{id}/leads/{leadId}': 'LeadsController_deleteLead',
  'POST /api/pages/{id}/leads/delete': 'LeadsController_deleteLeads',
  'POST /api/pages/{id}/restore': 'TrashController_restore',
  'GET /api/trash': 'TrashController_list',
  'DELETE /api/trash/{id}': 'TrashController_deleteForever',
  'GET /api/pages/{id}/leads/{leadId}/consent': 'ConsentRecordController_consent',
  'POST /api/pages/{id}/keep-live': 'PagesController_keepLive',
  'POST /api/pages/{id}/test-email': 'PagesController_sendTestEmail',
  'GET /api/pages/{id}/protection': 'LeadsController_pageProtection',
  'DELETE /api/pages/{id}/protection': 'LeadsController_endProtection',
  'GET /api/pages/{id}/stats': 'LeadsController_pageStats',
  'GET /api/pages/{id}/webhook': 'WebhooksController_show',
  'POST /api/pages/{id}/webhook/deliveries/{messageId}/redeliver': 'WebhooksController_redeliver',
  'POST /api/pages/{id}/webhook/enable': 'PagesController_enableWebhook',
  'POST /api/pages/{id}/webhook/rotate-secret': 'PagesController_rotateWebhookSecret',
  'POST /api/pages/{id}/webhook/test': 'WebhooksController_test',
  'POST /api/register': 'IdentityController_register',
  'POST /api/resend-verification': 'IdentityController_resendVerification',
  'POST /api/reset-password': 'IdentityController_resetPassword',
  'POST /api/resume-subscription': 'BillingController_resume',
  'GET /api/subscription': 'BillingController_subscription',
  'GET /api/templates': 'PagesController_templates',
  'GET /api/templates/{slug}': 'PagesController_template',
  'POST /api/update-password': 'IdentityController_updatePassword',
  'POST /api/upload-image': 'post_api_upload_image',
  'GET /api/user': 'IdentityController_currentUser',
  'POST /api/verify-checkout': 'BillingController_verifyCheckout',
  'POST /api/verify-email': 'IdentityController_verifyEmail',
  'GET /api/verify-reset-token/{token}': 'IdentityController_verifyResetToken',
  'POST /api/webhooks/stripe': 'post_api_webhooks_stripe',
  'GET /fonts/{file}': 'get_fonts_file',
  'GET /health': 'HealthController_check[0]',
  'GET /health/live': 'HealthController_live[0]',
  'GET /health/ready': 'HealthController_check[2]',
  'GET /login': 'get_login',
  'GET /metrics': 'get_metrics',
  'GET /p/{slug}': 'get_p_slug',
  'GET /confirm/{token}': 'ConfirmLeadController_page',
  'POST /confirm/{token}': 'ConfirmLeadController_formPost',
  'POST /p/{slug}': 'LeadFormController_byShortPath',
  'GET /p/{username}/{slug}': 'get_p_username_slug',
  'POST /p/{username}/{slug}': 'LeadFormController_byUserPath',
  'GET /register': 'get_register',
  'GET /signup': 'get_signup',
  'GET /uploads/{key}': 'get_uploads_key',
  'GET /verify-email': 'get_verify_email',
  'GET /{slug}': 'get_slug',
  'POST /{slug}': 'LeadFormController_bySlug',
};

describe('the API reference (OpenAPI)', () => {
  let document: OpenAPIObject;
  beforeAll(async () => {
    document = await generateApiDocument();
  });

  it('is committed as docs/openapi.json exactly as the code generates it (run `npm run build` to update it)', () => {
    expect(readFileSync(OPENAPI_FILE, 'utf8')).toBe(renderApiDocument(document));
  });

  it('describes every call a script needs, with its method and path', () => {
    const listed = operations(document).map(({ method, path }) => `${method.toUpperCase()} ${path}`);
    for (const call of [
      'POST /api/register',
      'POST /api/verify-email',
      'POST /api/login',
      'GET /api/user',
      'POST /api/pages',
      'PUT /api/pages/{id}',
      'POST /api/page/{slug}/submit',
      'GET /api/pages/{id}/export',
      'GET /api/pages/{id}/stats',
      'GET /api/pages/{id}/leads',
      'POST /api/upload-image',
      'POST /api/webhooks/stripe',
      'GET /api/pages/{id}/webhook',
      'GET /{slug}',
      'GET /login',
    ]) {
      expect(listed).toContain(call);
    }
  });

  it('gives every operation a summary, a success answer and a unique id', () => {
    const ids = new Set<string>();
    for (const { method, path, op } of operations(document)) {
      expect({ call: `${method} ${path}`, summary: typeof op.summary === 'string' && op.summary.length > 0 }).toEqual({ call: `${method} ${path}`, summary: true });
      expect(Object.keys(op.responses).some((status) => /^[23]\d\d$/.test(status))).toBe(true);
      expect(ids.has(op.operationId)).toBe(false);
      ids.add(op.operationId);
    }
  });

  it('keeps the operationId each call was published under', () => {
    const ids = Object.fromEntries(operations(document).map(({ method, path, op }) => [`${method.toUpperCase()} ${path}`, op.operationId]));
    expect(ids).toEqual(PUBLISHED_OPERATION_IDS);
  });

  it('marks the calls behind the session guard with the session cookie and their 401', () => {
    const byCall = new Map(operations(document).map(({ method, path, op }) => [`${method} ${path}`, op]));
    for (const call of ['get /api/user', 'post /api/pages', 'get /api/pages/{id}/export', 'get /api/subscription', 'post /api/pages/{id}/webhook/test', 'post /api/upload-image']) {
      const op = byCall.get(call)!;
      expect({ call, security: op.security }).toEqual({ call, security: [{ session: [] }] });
      expect(messagesOf(op.responses['401'])).toContain(IdentityMessages.notSignedIn);
    }
    for (const call of ['post /api/register', 'post /api/login', 'post /api/page/{slug}/submit', 'get /api/page/{slug}', 'post /api/webhooks/stripe']) {
      expect({ call, security: byCall.get(call)!.security }).toEqual({ call, security: undefined });
    }
    expect(document.components?.securitySchemes?.session).toEqual(expect.objectContaining({ type: 'apiKey', in: 'cookie', name: 'plink_session' }));
  });

  it('marks every /api/v1 call with the bearer token scheme (never the session cookie) and its 401 and 429', () => {
    const v1 = operations(document).filter(({ path }) => path.startsWith('/api/v1/'));
    expect(v1.length).toBe(8);
    for (const { method, path, op } of v1) {
      expect({ call: `${method} ${path}`, security: op.security }).toEqual({ call: `${method} ${path}`, security: [{ apiToken: [] }] });
      expect(messagesOf(op.responses['401'])).toContain(ApiTokenMessages.invalidToken);
      expect(messagesOf(op.responses['429'])).toContain(ApiTokenMessages.tooManyRequests);
    }
    expect(document.components?.securitySchemes?.apiToken).toEqual(expect.objectContaining({ type: 'http', scheme: 'bearer' }));
  });

  it('documents the refusals of the HTTP edge on every state-changing call, and the error shape', () => {
    for (const { method, path, op } of operations(document)) {
      if (!['post', 'put', 'delete'].includes(method)) continue;
      expect({ call: `${method} ${path}`, messages: messagesOf(op.responses['403']) }).toEqual({
        call: `${method} ${path}`,
        messages: expect.arrayContaining([CommonMessages.crossSiteRequest]),
      });
    }
    // Stripe's webhook takes its body as the exact text its signature covers: never parsed by the edge, so no
    // 'Malformed JSON' (a body that is not the signed event fails the signature), but the route's own 1 MB limit.
    const stripe = document.paths['/api/webhooks/stripe'].post as Operation;
    expect(messagesOf(stripe.responses['400'])).toEqual([BillingMessages.webhookSignatureInvalid]);
    expect(messagesOf(stripe.responses['413'])).toEqual([CommonMessages.bodyTooLarge]);
    expect(document.components?.schemas?.ApiError).toEqual(expect.objectContaining({ type: 'object', properties: { message: { type: 'string' } }, required: ['message'] }));
  });

  it("takes request bodies from the shared zod schemas, with their rules", () => {
    const register = document.paths['/api/register'].post as Operation;
    const schema = register.requestBody.content['application/json'].schema;
    expect(schema.required).toEqual(['username', 'email', 'password']);
    expect(schema.properties.username).toEqual(expect.objectContaining({ minLength: 3, maxLength: 30 }));
    expect(messagesOf(register.responses['409'])).toEqual([IdentityMessages.emailExists, IdentityMessages.usernameExists]);
    const submit = document.paths['/api/page/{slug}/submit'].post as Operation;
    expect(submit.requestBody.content['application/json'].schema.required).toEqual(['email']);
    expect(submit.responses['200'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/SubmitLeadResponse' });
    const update = document.paths['/api/pages/{id}'].put as Operation;
    expect(update.requestBody.content['application/json'].schema.required).toBeUndefined();
  });

  it('answers with the named schemas of the contracts', () => {
    const user = (document.paths['/api/user'].get as Operation).responses['200'].content['application/json'].schema;
    expect(user).toEqual({ $ref: '#/components/schemas/User' });
    expect(document.components?.schemas?.User).toEqual(
      expect.objectContaining({ required: ['id', 'username', 'email', 'isVerified', 'isPremium', 'createdAt', 'pendingEmail'] }),
    );
    const exportCsv = (document.paths['/api/pages/{id}/export'].get as Operation).responses['200'];
    expect(Object.keys(exportCsv.content)).toEqual(['text/csv']);
  });
});

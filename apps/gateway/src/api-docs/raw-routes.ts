import {
  BillingMessages,
  CommonMessages,
  LeadMessages,
  MAX_IMAGE_BYTES,
  UPLOAD_IMAGE_FIELD,
  UPLOAD_IMAGE_TYPES,
  UploadMessages,
  IdentityMessages,
  submitLeadResponseSchema,
  submitLeadSchema,
  uploadImageResponseSchema,
} from '@plink/contracts';
import { SESSION_COOKIE } from '@plink/identity';
import type { ApiErrorTexts } from '@plink/platform';
import type { z } from 'zod';

/**
 * The routes the gateway serves outside Nest's controllers (plain Fastify routes), described for the API
 * reference here rather than by decorators on their handlers. When one of them becomes a controller route,
 * its entry here still describes it until the handler gets its own `@ApiDoc` (a controller route with a
 * summary wins); then the entry can be removed.
 */
export interface RawOperation {
  method: 'get' | 'post';
  /** OpenAPI path (`{param}`). */
  path: string;
  tag: string;
  summary: string;
  description?: string;
  /** Needs the session cookie. */
  signedIn?: boolean;
  /** A state-changing call a browser may send only from the app (see the reference's introduction). */
  appOnly?: boolean;
  parameters?: Array<{ name: string; in: 'path' | 'query' | 'header'; description?: string; required?: boolean; schema: Record<string, unknown> }>;
  body?: { contentType: string; schema?: z.ZodType; raw?: Record<string, unknown>; description?: string };
  ok: { status: number; description: string; contentType?: string; schema?: z.ZodType; raw?: Record<string, unknown>; headers?: Record<string, string> };
  errors?: Partial<Record<number, ApiErrorTexts>>;
}

const slug = { name: 'slug', in: 'path' as const, required: true, schema: { type: 'string' }, description: "The page's address, any case" };
const html = 'text/html';

export const RAW_OPERATIONS: RawOperation[] = [
  {
    method: 'post',
    path: '/api/page/{slug}/submit',
    tag: 'Visitors',
    summary: "A visitor's sign-up on a landing page",
    description:
      "What the landing page's form sends. Stores the lead (once per page and lower-cased e-mail: a repeat answers the same), counts the conversion, and sends the file e-mail and the owner's webhook. Needs no session; " +
      'a sandboxed landing page (`Origin: null`) may call it with CORS. `website` is a honeypot: anything in it is answered like a success and stored nowhere.',
    parameters: [slug],
    body: { contentType: 'application/json', schema: submitLeadSchema },
    ok: { status: 200, description: 'What the page shows next', schema: submitLeadResponseSchema },
    errors: {
      400: [LeadMessages.invalidEmail, LeadMessages.consentRequired, CommonMessages.invalidRequest],
      403: CommonMessages.crossSiteRequest,
      404: [LeadMessages.pageNotFound, LeadMessages.pagePaused],
      415: CommonMessages.unsupportedMediaType,
      429: LeadMessages.tooManySubmissions,
    },
  },
  {
    method: 'post',
    path: '/api/upload-image',
    tag: 'Pages',
    summary: 'Upload an image for a page',
    description:
      `One image in the multipart field \`${UPLOAD_IMAGE_FIELD}\`, at most ${MAX_IMAGE_BYTES / 1024 / 1024} MB, judged by its bytes (JPEG, PNG, WebP, GIF, AVIF, TIFF, BMP; ICO for a favicon), ` +
      'decoded, stripped of metadata and encoded afresh at the size its type needs. The answer goes into the page\'s `imageUrl`, `backgroundImage`, `faviconUrl` or `metaImageUrl`. Verified accounts only; 60 a minute.',
    signedIn: true,
    appOnly: true,
    parameters: [{ name: 'type', in: 'query', required: true, schema: { type: 'string', enum: [...UPLOAD_IMAGE_TYPES] }, description: 'What the image is for' }],
    body: {
      contentType: 'multipart/form-data',
      raw: { type: 'object', properties: { [UPLOAD_IMAGE_FIELD]: { type: 'string', format: 'binary' } }, required: [UPLOAD_IMAGE_FIELD] },
    },
    ok: { status: 201, description: 'Created', schema: uploadImageResponseSchema },
    errors: {
      400: [UploadMessages.invalidType, UploadMessages.missingImage, UploadMessages.notAnImage, UploadMessages.unsupportedImage, UploadMessages.tooManyPixels],
      403: UploadMessages.verifyFirst,
      413: UploadMessages.tooLarge,
      429: UploadMessages.tooManyUploads,
    },
  },
  {
    method: 'post',
    path: '/api/webhooks/stripe',
    tag: 'Billing',
    summary: "Stripe's webhook intake",
    description:
      'Stripe sends its events here (configure this URL in Stripe). The `Stripe-Signature` must verify against `STRIPE_WEBHOOK_SECRET` over the exact body; the event is then stored once by its id and applied by the billing worker.',
    parameters: [{ name: 'Stripe-Signature', in: 'header', required: true, schema: { type: 'string' } }],
    body: { contentType: 'application/json', raw: { type: 'object', description: 'A Stripe event, exactly as Stripe sends it' } },
    ok: {
      status: 200,
      description: 'Received (`duplicate`: an event already stored)',
      raw: { type: 'object', properties: { received: { type: 'boolean', enum: [true] }, duplicate: { type: 'boolean' } }, required: ['received', 'duplicate'] },
    },
    errors: { 400: BillingMessages.webhookSignatureInvalid },
  },
  {
    method: 'get',
    path: '/{slug}',
    tag: 'Visitors',
    summary: 'A landing page',
    description:
      "The page, rendered on the server (no JavaScript needed); `?submitted=1` shows its thank-you state. Counts one view (not for a crawler or a HEAD probe). When `PUBLIC_ORIGIN` is another host, the app's host redirects here to it. A path that is one of the app's own screens (`/auth`, `/dashboard`, …) answers the app instead.",
    parameters: [slug, { name: 'submitted', in: 'query', schema: { type: 'string', enum: ['1'] }, description: 'Show the thank-you state' }],
    ok: { status: 200, description: 'The page', contentType: html },
    errors: { 404: ['the "Page not found" page (HTML)', 'the "This page is paused" page (HTML)'] },
  },
  {
    method: 'get',
    path: '/p/{slug}',
    tag: 'Visitors',
    summary: 'A landing page (long form)',
    parameters: [slug],
    ok: { status: 200, description: 'The page', contentType: html },
    errors: { 404: 'the "Page not found" page (HTML)' },
  },
  {
    method: 'get',
    path: '/p/{username}/{slug}',
    tag: 'Visitors',
    summary: "A landing page under its owner's username",
    description: 'Found only when the page is that user\'s.',
    parameters: [{ name: 'username', in: 'path', required: true, schema: { type: 'string' } }, slug],
    ok: { status: 200, description: 'The page', contentType: html },
    errors: { 404: 'the "Page not found" page (HTML)' },
  },
  {
    method: 'get',
    path: '/uploads/{key}',
    tag: 'Visitors',
    summary: 'An uploaded image',
    description: 'Cached a year (immutable): a new upload always gets a new key.',
    parameters: [{ name: 'key', in: 'path', required: true, schema: { type: 'string' }, description: 'As in the `imageUrl` an upload answered' }],
    ok: { status: 200, description: 'The image', contentType: 'image/*' },
    errors: { 404: CommonMessages.notFound },
  },
  {
    method: 'get',
    path: '/fonts/{file}',
    tag: 'Visitors',
    summary: "A web font file a landing page uses",
    parameters: [{ name: 'file', in: 'path', required: true, schema: { type: 'string' } }],
    ok: { status: 200, description: 'The font (woff2, cached a year)', contentType: 'font/woff2' },
    errors: { 404: CommonMessages.notFound },
  },
  {
    method: 'get',
    path: '/metrics',
    tag: 'Operations',
    summary: 'Prometheus metrics',
    description:
      'With `Authorization: Bearer <METRICS_TOKEN>`; outside production also for scrapers inside the network (loopback or private addresses, as TRUST_PROXY tells them); anyone else gets 404.',
    ok: { status: 200, description: 'Metrics in the Prometheus text format', contentType: 'text/plain' },
    errors: { 404: CommonMessages.notFound },
  },
  {
    method: 'get',
    path: '/admin/queues',
    tag: 'Operations',
    summary: 'The queue dashboard (jobs waiting, running, failed; retry and remove)',
    description:
      'Only when `OPERATOR_PASSWORD` is set: HTTP Basic authentication with any user name and that password. Otherwise 404. A call from another site (its `Origin`, or `Sec-Fetch-Site` on a change) gets 403.',
    ok: { status: 200, description: 'The dashboard', contentType: html },
    errors: { 401: 'Operator password required.', 403: CommonMessages.crossSiteRequest, 404: CommonMessages.notFound },
  },
  {
    method: 'get',
    path: '/login',
    tag: 'App',
    summary: 'The sign-in screen (redirects to `/auth`)',
    description: 'The query string is kept.',
    ok: { status: 302, description: 'Found', headers: { Location: '/auth' } },
  },
  {
    method: 'get',
    path: '/register',
    tag: 'App',
    summary: 'The registration screen (redirects to `/auth?tab=register`)',
    description: 'The query string is kept (`/register?template=photo-guide` → `/auth?tab=register&template=photo-guide`).',
    ok: { status: 302, description: 'Found', headers: { Location: '/auth?tab=register' } },
  },
  {
    method: 'get',
    path: '/signup',
    tag: 'App',
    summary: 'The registration screen (redirects to `/auth?tab=register`)',
    description: 'The same as `/register`.',
    ok: { status: 302, description: 'Found', headers: { Location: '/auth?tab=register' } },
  },
  {
    method: 'get',
    path: '/verify-email',
    tag: 'App',
    summary: 'Where the verification e-mail\'s link lands',
    description:
      'A page of the app: opening it (in any browser, signed in or not) sends `POST /api/verify-email` with the token and then goes on to the dashboard. Opening the link does not change anything by itself, so a mail scanner that fetches it spends nothing; a script confirms with the POST directly.',
    parameters: [{ name: 'token', in: 'query', required: true, schema: { type: 'string' } }],
    ok: { status: 200, description: 'The app', contentType: html },
  },
];

/** Texts of the introduction: how a client signs in and what every call may answer. */
export const API_DESCRIPTION = [
  'The HTTP API of Plink: what the app itself uses, for scripts and automation tools.',
  '',
  `**Signing in.** \`POST /api/register\` or \`POST /api/login\` sets the \`${SESSION_COOKIE}\` cookie (HttpOnly, SameSite=Lax); send it back on every call marked with the lock. \`POST /api/logout\` ends it. A call without a live session answers 401 '${IdentityMessages.notSignedIn}'.`,
  '',
  "**Requests.** Bodies are JSON (`Content-Type: application/json`, at most 100 KB); a state-changing call (POST, PUT, DELETE) with another body type answers 415. A browser may send those calls only from the app's own origin: one whose `Sec-Fetch-Site` or `Origin` names another site gets 403. A client that sends neither header (curl, a server) is not a browser and passes; it needs no CSRF token.",
  '',
  "**Answers.** JSON. A body that fails validation answers 400 with the message of its first failing field (e.g. 'Please enter a valid email'). Every error is `{ \"message\": \"…\" }` in the words the app shows; 429 answers carry `Retry-After` (seconds). API answers are never cached (`Cache-Control: no-store`).",
  '',
  'This document is generated from the code (the routes and the shared zod schemas that validate requests and describe answers); it is also at `/api/docs/openapi.json` on every Plink server and in the repository as `docs/openapi.json`.',
].join('\n');

import { CommonMessages, LeadMessages, submitLeadResponseSchema, submitLeadSchema } from '@plink/contracts';
import type { PlainRouteDoc } from '@plink/platform';

/**
 * The API reference's entry of the leads service's `POST /api/page/{slug}/submit` (LeadSubmitController,
 * mounted by the gateway). That controller carries no `@ApiDoc` of its own yet, so the gateway describes
 * it; once it does, this entry goes (the reference refuses a call described twice).
 */
export const LEAD_SUBMIT_DOC: PlainRouteDoc = {
  method: 'post',
  path: '/api/page/{slug}/submit',
  tag: 'Visitors',
  summary: "A visitor's sign-up on a landing page",
  description:
    "What the landing page's form sends. Stores the lead (once per page and lower-cased e-mail: a repeat answers the same), counts the conversion, and sends the file e-mail and the owner's webhook. Needs no session; " +
    'a sandboxed landing page (`Origin: null`) may call it with CORS. `website` is a honeypot: anything in it is answered like a success and stored nowhere.',
  parameters: [{ name: 'slug', in: 'path', required: true, schema: { type: 'string' }, description: "The page's address, any case" }],
  body: { contentType: 'application/json', schema: submitLeadSchema },
  ok: { status: 200, description: 'What the page shows next', schema: submitLeadResponseSchema },
  errors: {
    400: [LeadMessages.invalidEmail, LeadMessages.consentRequired, CommonMessages.invalidRequest],
    403: CommonMessages.crossSiteRequest,
    404: [LeadMessages.pageNotFound, LeadMessages.pagePaused],
    415: CommonMessages.unsupportedMediaType,
    429: LeadMessages.tooManySubmissions,
  },
};

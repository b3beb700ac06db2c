/** Every API error is JSON of this shape (ARCHITECTURE: Errors). */
export interface ApiErrorBody {
  message: string;
}

export const CommonMessages = {
  malformedJson: 'Malformed JSON in request body',
  bodyTooLarge: 'Request body is too large',
  unsupportedMediaType: 'Request body must be JSON',
  unsupportedFormMediaType: 'Request body must be a form or JSON',
  forbiddenKey: 'Request body may not contain the keys "__proto__", "constructor" or "prototype"',
  crossSiteRequest: 'This request came from another site and was refused.',
  notFound: 'Not found',
  internal: 'Something went wrong. Please try again later.',
  invalidRequest: 'Invalid request',
} as const;

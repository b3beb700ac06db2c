/** Every API error is JSON of this shape (ARCHITECTURE: Errors). */
export interface ApiErrorBody {
  message: string;
}

export const CommonMessages = {
  malformedJson: 'Malformed JSON in request body',
  bodyTooLarge: 'Request body is too large',
  unsupportedMediaType: 'Request body must be JSON',
  notFound: 'Not found',
  internal: 'Something went wrong. Please try again later.',
  invalidRequest: 'Invalid request',
} as const;

/** The one HTTP client of the SPA: cookies always, JSON only when there is a payload. */

export class ApiError extends Error {
  override readonly name = 'ApiError';

  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The body's `message` if JSON with one, else the raw body text, else the status text. */
function errorMessage(body: string, response: Response): string {
  const json = parseJson(body);
  const message = json && typeof json === 'object' && 'message' in json ? json.message : undefined;
  if (typeof message === 'string' && message) return message;
  return body.trim() || response.statusText || `Request failed with status ${response.status}`;
}

export async function apiRequest<T>(method: HttpMethod, url: string, payload?: unknown): Promise<T> {
  const hasPayload = payload !== undefined;
  const response = await fetch(url, {
    method,
    credentials: 'include',
    headers: hasPayload ? { 'Content-Type': 'application/json' } : undefined,
    body: hasPayload ? JSON.stringify(payload) : undefined,
  });
  const body = await response.text();
  if (!response.ok) throw new ApiError(errorMessage(body, response), response.status);
  return (body ? (parseJson(body) ?? body) : undefined) as T;
}

/** A multipart POST (file uploads): the browser sets the boundary; errors as for JSON calls. */
export async function apiUpload<T>(url: string, form: FormData): Promise<T> {
  const response = await fetch(url, { method: 'POST', credentials: 'include', body: form });
  const body = await response.text();
  if (!response.ok) throw new ApiError(errorMessage(body, response), response.status);
  return (body ? (parseJson(body) ?? body) : undefined) as T;
}

export const apiClient = {
  get: <T>(url: string) => apiRequest<T>('GET', url),
  post: <T>(url: string, payload?: unknown) => apiRequest<T>('POST', url, payload),
  put: <T>(url: string, payload?: unknown) => apiRequest<T>('PUT', url, payload),
  delete: <T>(url: string) => apiRequest<T>('DELETE', url),
};

/** The status of a failed call, when the server answered at all. */
export const errorStatus = (error: unknown): number | undefined =>
  error instanceof ApiError ? error.status : undefined;

/** The error's message, or `fallback` when there is none to show. */
export const errorText = (error: unknown, fallback: string): string =>
  error instanceof Error && error.message ? error.message : fallback;

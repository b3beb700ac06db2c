import { fakeResponse, type MockReply } from '../test/fetch-mock';
import { ApiError, apiClient } from './api-client';

function answer(reply: MockReply) {
  const fetchMock = jest.fn(async () => fakeResponse(reply));
  globalThis.fetch = fetchMock as unknown as typeof fetch;
  return fetchMock;
}

async function failure(reply: MockReply): Promise<ApiError> {
  answer(reply);
  const error = await apiClient.get('/api/thing').catch((e: unknown) => e);
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

describe('apiClient', () => {
  it('sends cookies, and no content type or body when there is no payload', async () => {
    const fetchMock = answer({ body: { id: 1 } });

    await expect(apiClient.get('/api/user')).resolves.toEqual({ id: 1 });
    await apiClient.post('/api/logout');

    expect(fetchMock).toHaveBeenNthCalledWith(1, '/api/user', {
      method: 'GET',
      credentials: 'include',
      headers: undefined,
      body: undefined,
    });
    expect(fetchMock).toHaveBeenNthCalledWith(2, '/api/logout', {
      method: 'POST',
      credentials: 'include',
      headers: undefined,
      body: undefined,
    });
  });

  it('sends a payload as JSON with a JSON content type', async () => {
    const fetchMock = answer({ body: { ok: true } });

    await apiClient.post('/api/login', { email: 'a@b.co', password: 'secret1' });

    expect(fetchMock).toHaveBeenCalledWith('/api/login', {
      method: 'POST',
      credentials: 'include',
      headers: { 'Content-Type': 'application/json' },
      body: '{"email":"a@b.co","password":"secret1"}',
    });
  });

  it('answers undefined for an empty body', async () => {
    answer({ status: 204 });
    await expect(apiClient.delete('/api/pages/1')).resolves.toBeUndefined();
  });

  it("uses the JSON body's message and keeps the status", async () => {
    const error = await failure({ status: 409, statusText: 'Conflict', body: { message: 'Email already exists' } });
    expect(error.message).toBe('Email already exists');
    expect(error.status).toBe(409);
  });

  it('uses the raw body text when the body is not JSON', async () => {
    const error = await failure({ status: 502, statusText: 'Bad Gateway', body: 'upstream timed out' });
    expect(error.message).toBe('upstream timed out');
    expect(error.status).toBe(502);
  });

  it('uses the raw body text when the JSON has no message', async () => {
    const error = await failure({ status: 400, statusText: 'Bad Request', body: { error: 'nope' } });
    expect(error.message).toBe('{"error":"nope"}');
  });

  it('uses the status text when the body is empty', async () => {
    const error = await failure({ status: 503, statusText: 'Service Unavailable' });
    expect(error.message).toBe('Service Unavailable');
    expect(error.status).toBe(503);
  });
});

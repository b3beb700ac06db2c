import { toApiError } from './api-exception.filter';

const unavailable = { status: 503, message: 'The service is temporarily unavailable. Please try again in a moment.', headers: { 'retry-after': '5' } };
const coded = (message: string, code: string) => Object.assign(new Error(message), { code });

describe('API errors while the database is away', () => {
  it.each([
    ['a restart terminating the connection (57P01)', coded('terminating connection due to administrator command', '57P01')],
    ['a server starting up or shutting down (57P03)', coded('the database system is starting up', '57P03')],
    ['a connection failure (class 08)', coded('connection failure', '08006')],
    ['too many connections (53300)', coded('sorry, too many clients already', '53300')],
    ['a refused connection', coded('connect ECONNREFUSED 10.0.0.5:5432', 'ECONNREFUSED')],
    ["a database host whose name does not resolve yet", coded('getaddrinfo EAI_AGAIN postgres', 'EAI_AGAIN')],
    ['a connection that broke under a query', new Error('Connection terminated unexpectedly')],
    ['a pool that could not connect in time', new Error('timeout exceeded when trying to connect')],
    ['a failed connect wrapped by the driver', new AggregateError([coded('connect ECONNREFUSED ::1:5432', 'ECONNREFUSED')], 'connect failed')],
  ])('answers 503 with Retry-After for %s', (_what, err) => {
    expect(toApiError(err)).toEqual(unavailable);
  });

  it('keeps 500 for a statement the database refused', () => {
    expect(toApiError(coded('duplicate key value violates unique constraint', '23505')).status).toBe(500);
    expect(toApiError(coded('syntax error at or near "x"', '42601')).status).toBe(500);
    expect(toApiError(new Error('something else broke')).status).toBe(500);
  });
});

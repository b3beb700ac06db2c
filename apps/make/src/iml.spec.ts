import { evaluate } from './iml';

describe('the IML subset the Make test runs', () => {
  const scope = { connection: { instanceUrl: 'https://plink.example.com//', apiToken: 'plk_x' }, parameters: { pageId: 12 }, body: { lead: { id: 7 } } };

  it('keeps the type of a lone expression and makes text of a mixed one', () => {
    expect(evaluate('{{parameters.pageId}}', scope)).toBe(12);
    expect(evaluate('{{parameters.missing}}', scope)).toBeUndefined();
    expect(evaluate('/pages/{{parameters.pageId}}/leads', scope)).toBe('/pages/12/leads');
    expect(evaluate({ a: ['{{body.lead}}'] }, scope)).toEqual({ a: [{ id: 7 }] });
    expect(evaluate('{{`body`.lead.id}}', scope)).toBe(7);
  });

  it('runs replace with a regular expression and ifempty', () => {
    expect(evaluate('{{replace(connection.instanceUrl; "/\\/+$/"; "")}}/api/v1', scope)).toBe('https://plink.example.com/api/v1');
    expect(evaluate('{{ifempty(parameters.missing; false)}}', scope)).toBe(false);
    expect(evaluate('{{ifempty(parameters.pageId; 1)}}', scope)).toBe(12);
  });

  it('refuses what it does not know instead of guessing', () => {
    expect(() => evaluate('{{md5(parameters.pageId)}}', scope)).toThrow('function md5() is not supported');
    expect(() => evaluate('{{parameters.pageId + 1}}', scope)).toThrow('unexpected text');
  });
});

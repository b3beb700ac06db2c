import { normaliseEmail, personKeyOf } from './person-key';

describe('one person, one key', () => {
  it('lower-cases an address and drops its +tag', () => {
    expect(normaliseEmail('Ann.Lee+x@Example.COM')).toBe('ann.lee@example.com');
    expect(normaliseEmail('  bob+news+more@example.org ')).toBe('bob@example.org');
  });

  it('drops the dots Gmail ignores, and treats googlemail.com as gmail.com', () => {
    expect(normaliseEmail('Ann.Lee+x@gmail.com')).toBe('annlee@gmail.com');
    expect(normaliseEmail('a.n.n.l.e.e@GoogleMail.com')).toBe('annlee@gmail.com');
    expect(normaliseEmail('annlee@gmail.com.')).toBe('annlee@gmail.com');
  });

  it('keeps the dots of providers that do not ignore them, and other addresses apart', () => {
    expect(normaliseEmail('ann.lee@example.com')).not.toBe(normaliseEmail('annlee@example.com'));
    expect(normaliseEmail('ann.lee@gmail.co.uk')).toBe('ann.lee@gmail.co.uk');
    expect(personKeyOf('annlee@gmail.com')).not.toBe(personKeyOf('annlee2@gmail.com'));
  });

  it('leaves a local part that is only a tag or only dots as it is, and anything not an address trimmed and lower-cased', () => {
    expect(normaliseEmail('+x@example.com')).toBe('+x@example.com');
    expect(normaliseEmail('...@gmail.com')).toBe('...@gmail.com');
    expect(normaliseEmail(' NotAnAddress ')).toBe('notanaddress');
    expect(normaliseEmail('trailing@')).toBe('trailing@');
  });

  it('gives every spelling of one mailbox the same key, a hash that does not show the address', () => {
    const key = personKeyOf('annlee@gmail.com');
    for (const spelling of ['Ann.Lee+x@gmail.com', 'ANNLEE@googlemail.com', 'a.nnlee+trial2@gmail.com']) expect(personKeyOf(spelling)).toBe(key);
    expect(key).toMatch(/^[0-9a-f]{64}$/);
    expect(key).not.toContain('annlee');
  });
});

import { TestDns } from '../testing/test-dns';
import { DNS_TIMEOUT_MS, MailDomainResolver, domainOf, isThrowawayDomain } from './email-domains';

describe('e-mail domain checks', () => {
  it('knows throwaway domains and their subdomains from the maintained list, and nothing else', () => {
    expect(domainOf('Ann@Mailinator.COM')).toBe('mailinator.com');
    expect(isThrowawayDomain('mailinator.com')).toBe(true);
    expect(isThrowawayDomain('guerrillamail.com')).toBe(true);
    expect(isThrowawayDomain('inbox.mailinator.com')).toBe(true);
    expect(isThrowawayDomain('gmail.com')).toBe(false);
    expect(isThrowawayDomain('example.com')).toBe(false);
    expect(isThrowawayDomain('fastmail.com')).toBe(false);
  });

  describe('whether a domain receives mail, asked of a DNS server', () => {
    let dns: TestDns;
    let resolver: MailDomainResolver;

    beforeAll(async () => {
      dns = await TestDns.start({
        'with-mx.test': { mx: 'mail.with-mx.test' },
        'only-a.test': { a: '192.0.2.10' },
        'only-aaaa.test': { aaaa: '2001:db8::10' },
        'nothing.test': {},
        'failing.test': 'servfail',
        'slow.test': 'silent',
      });
      resolver = new MailDomainResolver([dns.address]);
    });

    afterAll(async () => {
      resolver?.cancel();
      await dns?.stop();
    });

    it('says yes for an MX record, or an A or AAAA record without one', async () => {
      expect(await resolver.check('with-mx.test')).toBe('mail');
      expect(await resolver.check('only-a.test')).toBe('mail');
      expect(await resolver.check('only-aaaa.test')).toBe('mail');
    });

    it('says no for a domain that does not exist, or exists with neither record', async () => {
      expect(await resolver.check('no-such-domain.test')).toBe('no-mail');
      expect(await resolver.check('nothing.test')).toBe('no-mail');
    });

    it('cannot tell (the caller accepts) on a server failure or when the server does not answer in 1.5 s', async () => {
      expect(await resolver.check('failing.test')).toBe('unknown');
      const started = Date.now();
      expect(await resolver.check('slow.test')).toBe('unknown');
      const took = Date.now() - started;
      expect(took).toBeGreaterThanOrEqual(DNS_TIMEOUT_MS - 50);
      expect(took).toBeLessThan(DNS_TIMEOUT_MS + 1_000);
    });
  });
});

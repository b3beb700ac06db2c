import { checkOutboundUrl, guardedLookup, isBlockedAddress, BlockedAddressError, type Resolver } from './outbound-address';

/** A resolver stub: each host answers the given addresses (an unknown host fails like DNS does). */
function resolverOf(table: Record<string, string[]>): Resolver {
  return async (host) => {
    const addresses = table[host];
    if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
}

const dns = resolverOf({
  'hooks.example.com': ['93.184.216.34'],
  'rebind.example.com': ['127.0.0.1'],
  'mixed.example.com': ['93.184.216.34', '10.0.0.5'],
  'v6.example.com': ['2606:4700:4700::1111'],
  'v6-local.example.com': ['fd00::1'],
});
const strict = { allowPrivate: false, resolver: dns };

describe('outbound address rule', () => {
  it.each([
    '127.0.0.1', '127.255.0.9', '0.0.0.0', '10.1.2.3', '172.16.0.1', '172.31.255.255', '192.168.1.1', '169.254.169.254',
    '100.64.0.1', '224.0.0.1', '239.255.255.250', '255.255.255.255', '198.18.0.1',
    '::', '::1', 'fe80::1', 'fc00::1', 'fd12:3456::1', 'ff02::1', '::ffff:127.0.0.1', '::ffff:10.0.0.1', '::ffff:8.8.8.8', '::ffff:7f00:1', '64:ff9b::a00:1', '2002:7f00:1::1',
    // IPv4-mapped and IPv4-translated forms, in every spelling, whatever IPv4 address they carry.
    '::ffff:0:0', '0:0:0:0:0:ffff:7f00:1', '::ffff:169.254.169.254', '::ffff:0:7f00:1', '::ffff:0:10.0.0.1', '::ffff:0:808:808', '0:0:0:0:ffff:0:a9fe:a9fe',
    '64:ff9b::7f00:1', '64:ff9b::8.8.8.8', '64:ff9b:1::a00:1',
  ])('refuses %s', (address) => {
    expect(isBlockedAddress(address)).toBe(true);
  });

  it.each(['93.184.216.34', '8.8.8.8', '172.32.0.1', '100.128.0.1', '2606:4700:4700::1111', '2a00:1450:4001::200e'])('allows %s', (address) => {
    expect(isBlockedAddress(address)).toBe(false);
  });

  it('counts anything that is not an IP address as blocked', () => {
    expect(isBlockedAddress('localhost')).toBe(true);
  });

  it.each([
    'http://127.0.0.1/hook',
    'http://[::1]:8080/hook',
    'http://10.0.0.8/hook',
    'http://169.254.169.254/latest/meta-data/',
    'http://0x7f000001/',
    'http://2130706433/',
    'http://0177.0.0.1/',
    'http://[::ffff:127.0.0.1]/',
    'http://[::ffff:0:127.0.0.1]/',
    'http://[::ffff:0:a9fe:a9fe]/latest/meta-data/',
    'http://[64:ff9b::a9fe:a9fe]/',
    'https://rebind.example.com/hook',
    'https://mixed.example.com/hook',
    'https://v6-local.example.com/hook',
  ])('refuses to save %s (inward)', async (url) => {
    expect(await checkOutboundUrl(url, strict)).toMatchObject({ ok: false, reason: 'blocked' });
  });

  it.each(['ftp://hooks.example.com/x', 'file:///etc/passwd', 'gopher://hooks.example.com/', 'http://user:pass@hooks.example.com/', 'not a url', 'http://'])(
    'refuses to save %s (not an http(s) URL with a host)',
    async (url) => {
      expect(await checkOutboundUrl(url, strict)).toMatchObject({ ok: false, reason: 'scheme' });
    },
  );

  it('saves public URLs, and hosts that do not resolve now', async () => {
    expect(await checkOutboundUrl('https://hooks.example.com/x', strict)).toEqual({ ok: true, resolved: true });
    expect(await checkOutboundUrl('https://v6.example.com/x', strict)).toEqual({ ok: true, resolved: true });
    expect(await checkOutboundUrl('https://93.184.216.34/x', strict)).toEqual({ ok: true, resolved: true });
    expect(await checkOutboundUrl('https://not-yet.example.com/x', strict)).toEqual({ ok: true, resolved: false });
  });

  it('allows inward addresses only with allowPrivate (development and tests)', async () => {
    expect(await checkOutboundUrl('http://127.0.0.1:3000/hook', { allowPrivate: true, resolver: dns })).toEqual({ ok: true, resolved: true });
    expect(await checkOutboundUrl('ftp://127.0.0.1/', { allowPrivate: true, resolver: dns })).toMatchObject({ ok: false, reason: 'scheme' });
  });

  it('the connection lookup resolves once and fails on an inward answer with "blocked address"', async () => {
    const lookup = guardedLookup(strict);
    const resolve = (host: string) =>
      new Promise<{ err: Error | null; address?: unknown }>((done) =>
        lookup(host, {}, ((err: Error | null, address?: unknown) => done({ err, address })) as never),
      );
    expect(await resolve('hooks.example.com')).toEqual({ err: null, address: '93.184.216.34' });
    const blocked = await resolve('rebind.example.com');
    expect(blocked.err).toBeInstanceOf(BlockedAddressError);
    expect(blocked.err!.message).toBe('blocked address (127.0.0.1)');
    expect((await resolve('nowhere.example.com')).err!.message).toContain('ENOTFOUND');
  });
});

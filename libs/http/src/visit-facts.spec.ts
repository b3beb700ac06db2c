import { campaignOf, deviceClass, referrerDomain, utcDay, visitSourceOf } from './visit-facts';

describe('visit facts', () => {
  it('tells desktop, phone and tablet apart by the user agent', () => {
    expect(deviceClass('Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36')).toBe('desktop');
    expect(deviceClass('Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Mobile Safari/537.36')).toBe('phone');
    expect(deviceClass('Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148')).toBe('phone');
    expect(deviceClass('Mozilla/5.0 (Linux; Android 14; SM-X710) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36')).toBe('tablet');
    expect(deviceClass('Mozilla/5.0 (iPad; CPU OS 17_0 like Mac OS X)')).toBe('tablet');
    expect(deviceClass(undefined)).toBe('desktop');
  });

  it('keeps the referrer domain without www, not the own host, not other schemes or junk', () => {
    expect(referrerDomain('https://www.News.example/a?b=c', [])).toBe('news.example');
    expect(referrerDomain('https://pages.plink.test/x', ['pages.plink.test'])).toBeUndefined();
    expect(referrerDomain('android-app://com.google.android.gm/', [])).toBeUndefined();
    expect(referrerDomain('not a url', [])).toBeUndefined();
    expect(referrerDomain(undefined, [])).toBeUndefined();
  });

  it('reads ref, source and utm values from the query, trimmed and lower-cased', () => {
    expect(campaignOf('/page?utm_source=News%20Letter&utm_medium=Email&utm_campaign=spring&ref=ig&source=bio')).toEqual({
      utmSource: 'news letter',
      utmMedium: 'email',
      utmCampaign: 'spring',
      ref: 'ig',
      source: 'bio',
    });
    expect(campaignOf('/page?submitted=1')).toEqual({});
    expect(campaignOf('/page')).toEqual({});
    expect(campaignOf(`/page?utm_campaign=${'x'.repeat(300)}`).utmCampaign).toHaveLength(100);
  });

  it('names the UTC day', () => {
    expect(utcDay(Date.UTC(2026, 10, 27, 23, 59))).toBe('2026-11-27');
  });

  it("gives a sign-up's source from the referrer, the page's query and the browser", () => {
    const iphone = 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) Mobile/15E148';
    expect(visitSourceOf({ referer: 'https://t.co/abc', query: '?ref=Launch&utm_source=x&utm_campaign=c1', userAgent: iphone }, [])).toEqual({
      referrer: 't.co',
      ref: 'launch',
      source: null,
      utmSource: 'x',
      utmMedium: null,
      utmCampaign: 'c1',
      device: 'phone',
    });
    // A form post's Referer: the page itself (own host, not a referrer) with the query it was opened with.
    expect(visitSourceOf({ query: 'https://pages.test/ebook?source=bio' }, ['pages.test'])).toMatchObject({ referrer: null, source: 'bio', device: 'desktop' });
  });
});

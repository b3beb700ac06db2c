import { makePage } from '../__fixtures__/page';
import { renderPublicPageDocument } from '../server/render-document';
import { socialCard } from './social-card';

const ORIGIN = 'https://plink.test';

/** The og: tags a social network reads from the served document (entities decoded as a parser would). */
function ogTags(html: string) {
  const tag = (key: string) => {
    const m = new RegExp(`<meta property="og:${key}" content="([^"]*)">`).exec(html);
    return m ? m[1].replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, '&') : null;
  };
  return { title: tag('title'), description: tag('description'), image: tag('image') };
}

describe('socialCard', () => {
  const pages = {
    'its own sharing texts and image': makePage({ metaTitle: 'Share me', metaDescription: 'Tips & "tricks"', metaImageUrl: '/uploads/og.png', imageUrl: '/uploads/main.png' }),
    'the title, the subtext and the main image': makePage({ metaTitle: '  ', metaDescription: null, subtext: '<p>Big&nbsp;news <b>inside</b></p>', imageUrl: 'https://cdn.example.com/main.png' }),
    'nothing to share but its slug': makePage({ title: '', metaTitle: null, metaDescription: null, subtext: null, imageUrl: null, metaImageUrl: null }),
    'an unsafe image address': makePage({ metaImageUrl: 'javascript:alert(1)', imageUrl: null }),
  };

  it.each(Object.entries(pages))('is what the served document tells social networks, for a page with %s', (_, page) => {
    expect(ogTags(renderPublicPageDocument(page, { state: 'form', canonicalUrl: `${ORIGIN}/photo-guide`, appOrigin: ORIGIN }))).toEqual(
      socialCard(page, ORIGIN),
    );
  });

  it('falls back from the sharing texts and image to the page, then to Plink', () => {
    expect(socialCard(pages['its own sharing texts and image'], ORIGIN)).toEqual({
      title: 'Share me',
      description: 'Tips & "tricks"',
      image: 'https://plink.test/uploads/og.png',
    });
    expect(socialCard(pages['the title, the subtext and the main image'], ORIGIN)).toEqual({
      title: 'The Free Photo Guide',
      description: 'Big news inside',
      image: 'https://cdn.example.com/main.png',
    });
    expect(socialCard(pages['nothing to share but its slug'], ORIGIN)).toEqual({ title: 'Plink', description: null, image: null });
    expect(socialCard(pages['an unsafe image address'], ORIGIN).image).toBeNull();
  });
});

import { createPageSchema } from '@plink/contracts';
import { applyPlanRules } from './plan-rules';

describe('applyPlanRules', () => {
  const asked = createPageSchema.parse({
    slug: 'mine',
    showBranding: false,
    webhookUrl: 'https://hooks.example.com/x',
    customCodeSnippet: '<script>track()</script>',
    facebookPixelId: '123456789',
  });

  it('saves Free pages with the branding and without webhook or custom code', () => {
    expect(applyPlanRules(asked, { isPremium: false })).toEqual({
      ...asked,
      showBranding: true,
      webhookUrl: null,
      customCodeSnippet: null,
    });
  });

  it('applies to partial updates too, whatever they contain', () => {
    expect(applyPlanRules({ title: 'x' }, { isPremium: false })).toEqual({
      title: 'x',
      showBranding: true,
      webhookUrl: null,
      customCodeSnippet: null,
    });
  });

  it('keeps what a Pro user asks for', () => {
    expect(applyPlanRules(asked, { isPremium: true })).toEqual(asked);
    expect(applyPlanRules({ title: 'x' }, { isPremium: true })).toEqual({ title: 'x' });
  });
});

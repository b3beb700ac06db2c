import { newPageFormValues } from './page-form';
import { applyFreePlan, brandingAfterToggle } from './plan-gating';

describe('plan gating in the editor', () => {
  it('keeps the branding on for a Free user who turns it off, and says so', () => {
    expect(brandingAfterToggle(false, false)).toEqual({ showBranding: true, refused: true });
    expect(brandingAfterToggle(false, true)).toEqual({ showBranding: true, refused: false });
  });

  it('lets a Pro user turn the branding off and on', () => {
    expect(brandingAfterToggle(true, false)).toEqual({ showBranding: false, refused: false });
    expect(brandingAfterToggle(true, true)).toEqual({ showBranding: true, refused: false });
  });

  it('saves a Free page with branding and without webhook or custom code, as the server does', () => {
    const values = { ...newPageFormValues(), slug: 'x', showBranding: false, webhookUrl: 'https://h.example/x', customCodeSnippet: '<b>x</b>' };
    expect(applyFreePlan(values, false)).toMatchObject({ showBranding: true, webhookUrl: '', customCodeSnippet: '' });
    expect(applyFreePlan(values, true)).toBe(values);
  });
});

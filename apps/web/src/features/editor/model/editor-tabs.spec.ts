import { EDITOR_TABS, tabOfField } from './editor-tabs';
import { newPageFormValues } from './page-form';

describe('editor tabs', () => {
  it('puts every field of the form on exactly one tab', () => {
    const onTabs = EDITOR_TABS.flatMap((tab) => tab.fields as readonly string[]);
    expect([...onTabs].sort()).toEqual(Object.keys(newPageFormValues()).sort());
    expect(new Set(onTabs).size).toBe(onTabs.length);
  });

  it('finds the tab of a field, for save errors', () => {
    expect(tabOfField('slug')).toBe('content');
    expect(tabOfField('titleFont')).toBe('appearance');
    expect(tabOfField('webhookUrl')).toBe('settings');
    expect(tabOfField('thankYouButtonUrl')).toBe('thank-you');
    expect(tabOfField('faviconUrl')).toBe('metadata');
    expect(tabOfField('nope')).toBeUndefined();
  });
});

import { storableText } from './webhook-log.repository';

describe('storableText (a receiver answer as the delivery log stores it)', () => {
  it('keeps ordinary text up to the limit', () => {
    expect(storableText('{"ok":true}', 500)).toBe('{"ok":true}');
    expect(storableText('x'.repeat(600), 500)).toHaveLength(500);
    expect(storableText(null, 500)).toBeNull();
  });

  it('drops NUL characters and the half of a surrogate pair a cut leaves, which PostgreSQL refuses', () => {
    expect(storableText('a\u0000b', 10)).toBe('ab');
    const emoji = '\u{1F600}'; // two UTF-16 code units
    expect(storableText(`ab${emoji}`, 10)).toBe(`ab${emoji}`);
    expect(storableText(`ab${emoji}`, 3)).toBe('ab\ufffd');
    expect(storableText('\udc00lone', 10)).toBe('\ufffdlone');
  });
});

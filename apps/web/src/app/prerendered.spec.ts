import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BOOT_LOADER_CLASS, isPrerendered } from './prerendered';

describe('what the app finds in #root', () => {
  const root = (html: string) => {
    const div = document.createElement('div');
    div.innerHTML = html;
    return div;
  };

  it('replaces the shell’s brand loader (every screen that is not prerendered, signed in or not)', () => {
    const shell = readFileSync(join(__dirname, '../../index.html'), 'utf8');
    const inner = /<div id="root">([\s\S]*?)<!--\/plink-boot-->/.exec(shell)![1];
    expect(inner).toContain(`class="${BOOT_LOADER_CLASS}"`);
    expect(isPrerendered(root(inner))).toBe(false);
    expect(isPrerendered(root(''))).toBe(false);
  });

  it('hydrates a prerendered screen', () => {
    expect(isPrerendered(root('<div class="mantine-AppShell-root"><header>Plink</header></div>'))).toBe(true);
  });
});

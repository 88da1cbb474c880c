import { describe, expect, it } from 'vitest';
import { contrastRatio, SHADE_CONTRAST, theme } from './theme.ts';

/** WCAG AA: 4.5:1 for text, 3:1 for large text and UI parts. */
describe('the theme', () => {
  const palettes = Object.entries(theme.colors ?? {}).filter(([name]) => name !== 'dark');

  it('gives every palette filled, outline and text shades readable on white and under white text', () => {
    expect(palettes.length).toBeGreaterThanOrEqual(13);
    for (const [name, shades] of palettes) {
      for (const index of [6, 7, 8, 9] as const) {
        const ratio = contrastRatio(shades![index], '#ffffff');
        expect(ratio, `${name}.${index}`).toBeGreaterThanOrEqual(SHADE_CONTRAST[index]);
        expect(ratio, `${name}.${index}`).toBeGreaterThanOrEqual(4.5);
      }
    }
  });

  it('gives light variants (shade 9 on shade 1, 0 and the page) text contrast', () => {
    for (const [name, shades] of palettes) {
      for (const background of [shades![0], shades![1], '#ffffff']) {
        expect(contrastRatio(shades![9], background), `${name}.9 on ${background}`).toBeGreaterThanOrEqual(
          4.5,
        );
      }
    }
  });

  it('keeps the pale background shades as Mantine has them', () => {
    expect(theme.colors?.teal?.[1]).toBe('#c3fae8');
  });
});

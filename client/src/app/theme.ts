import {
  type CSSVariablesResolver,
  createTheme,
  DEFAULT_THEME,
  luminance,
  type MantineColorsTuple,
} from '@mantine/core';
import type { KeyboardEvent } from 'react';

/** WCAG 2.1 contrast ratio of two colours. */
export function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/** `#rrggbb` moved towards black by `amount` (0–1). */
function darkenHex(hex: string, amount: number): string {
  const n = Number.parseInt(hex.slice(1), 16);
  const channel = (shift: number) =>
    Math.round(((n >> shift) & 255) * (1 - amount))
      .toString(16)
      .padStart(2, '0');
  return `#${channel(16)}${channel(8)}${channel(0)}`;
}

/**
 * WCAG 2.1 AA in every colour Mantine paints with: the stock palettes' shades 6–9 are too light
 * (teal 6 on white is 2.55:1, gray 6 is 3.32:1). Each palette keeps its hue and pale shades 0–5
 * (backgrounds) and has shades 6–9 darkened just enough to reach these ratios against white: 6 is
 * the filled/outline colour under white text and the `c="teal"` text colour, 9 is the light
 * variant's text on shade 1.
 */
export const SHADE_CONTRAST: Record<6 | 7 | 8 | 9, number> = { 6: 4.7, 7: 5.6, 8: 6.8, 9: 8 };

function accessible(shades: MantineColorsTuple): MantineColorsTuple {
  const out = [...shades];
  for (const index of [6, 7, 8, 9] as const) {
    let colour = out[index]!;
    while (contrastRatio(colour, '#ffffff') < SHADE_CONTRAST[index]) colour = darkenHex(colour, 0.03);
    out[index] = colour;
  }
  return out as unknown as MantineColorsTuple;
}

const colors = Object.fromEntries(
  Object.entries(DEFAULT_THEME.colors).map(([name, shades]) => [
    name,
    // `dark` is already dark from shade 4 on and is the dark scheme's surface scale.
    name === 'dark' ? shades : accessible(shades),
  ]),
);

/**
 * Enter on a select opens it (or picks the highlighted option) and never submits the form around
 * it: Mantine leaves Enter on a closed or unhighlighted searchable select to the browser, whose
 * implicit submission then sends a half-filled form.
 */
export function keepEnterInSelect(event: KeyboardEvent<HTMLInputElement>): void {
  if (event.key !== 'Enter' || event.nativeEvent.isComposing) return;
  event.preventDefault();
  if (event.currentTarget.getAttribute('aria-expanded') !== 'true') event.currentTarget.click();
}

export const theme = createTheme({
  primaryColor: 'teal',
  primaryShade: { light: 6, dark: 8 },
  colors,
  defaultRadius: 'md',
  fontFamily: 'Inter, system-ui, -apple-system, "Segoe UI", Roboto, sans-serif',
  // Keyboard focus is always drawn (theme.css draws a 2 px ring on inputs too).
  focusRing: 'auto',
  // Every icon-only control has a name (WCAG 4.1.2); a screen may still give a more specific one.
  components: {
    Select: { defaultProps: { onKeyDown: keepEnterInSelect } },
    // Tap targets of 24 px or more (WCAG 2.5.8): Mantine's default box and track are 20 px.
    Checkbox: { defaultProps: { size: 'md' } },
    Switch: { defaultProps: { size: 'md' } },
    Radio: { defaultProps: { size: 'md' } },
    MultiSelect: { defaultProps: { onKeyDown: keepEnterInSelect } },
    CloseButton: { defaultProps: { 'aria-label': 'Close' } },
    InputClearButton: { defaultProps: { 'aria-label': 'Clear value' } },
    Alert: { defaultProps: { closeButtonLabel: 'Dismiss message' } },
    // A table that scrolls sideways on a phone can be scrolled with the keyboard (WCAG 2.1.1).
    TableScrollContainer: {
      defaultProps: {
        scrollAreaProps: { viewportProps: { tabIndex: 0, role: 'region', 'aria-label': 'Scrollable table' } },
      },
    },
  },
});

/** Dimmed text and placeholders at 4.5:1 or more on white (stock: gray 6 and gray 5). */
export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': 'var(--mantine-color-gray-7)',
    '--mantine-color-placeholder': 'var(--mantine-color-gray-6)',
  },
  dark: {},
});

import { type CSSVariablesResolver, Drawer, type MantineColorsTuple, Modal, PasswordInput, createTheme, mergeThemeOverrides } from '@mantine/core';
import classes from './theme.module.css';

/** Manifest theme colour #1c7ed6 is Mantine's blue[7]; keep the brand in one place. */
const brand: MantineColorsTuple = ['#e7f5ff', '#d0ebff', '#a5d8ff', '#74c0fc', '#4dabf7', '#339af0', '#228be6', '#1c7ed6', '#1971c2', '#1864ab'];

export const theme = createTheme({
  primaryColor: 'brand',
  primaryShade: 7,
  colors: { brand },
  fontFamily:
    '-apple-system, BlinkMacSystemFont, "Segoe UI", Roboto, "PingFang SC", "Hiragino Sans GB", "Microsoft YaHei", "Noto Sans CJK SC", Helvetica, Arial, sans-serif',
  defaultRadius: 'md',
  components: {
    // On a phone the close button is a tap of 34 px (theme.module.css); the desktop keeps Mantine's 28 px.
    Modal: Modal.extend({ defaultProps: { size: 720 }, classNames: { close: classes.dialogClose } }),
    Drawer: Drawer.extend({ classNames: { close: classes.dialogClose } }),
    // On a phone the show/hide button is a tap of at least 32 px (theme.module.css); the desktop keeps Mantine's size.
    PasswordInput: PasswordInput.extend({ classNames: { visibilityToggle: classes.passwordToggle } }),
  },
});

/**
 * Secondary ("dimmed") text in the light scheme: Mantine's gray.6 (#868e96) reads 3.3:1 on white and 3.0:1 on a tinted
 * card — under WCAG's 4.5:1 for the small labels it is used for (counter names, times, hints), in a bright hall on a
 * phone. #5c636a reads 6.1:1 on white and at least 4.9:1 on the light tints (the active counter's blue). The dark scheme keeps Mantine's.
 */
export const cssVariablesResolver: CSSVariablesResolver = () => ({ variables: {}, light: { '--mantine-color-dimmed': '#5c636a' }, dark: {} });

/**
 * The theme with the labels Mantine would otherwise give in English: the password field's show/hide button
 * (read out by screen readers) carries its label in the user's language.
 */
export function localisedTheme(passwordToggle: string | undefined): typeof theme {
  if (!passwordToggle) return theme;
  return mergeThemeOverrides(theme, {
    components: { PasswordInput: PasswordInput.extend({ defaultProps: { visibilityToggleButtonProps: { 'aria-label': passwordToggle } } }) },
  });
}

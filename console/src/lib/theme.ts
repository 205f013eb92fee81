// Light or dark colour mode: light by default, remembered in localStorage (spec section 9).
export type Theme = 'light' | 'dark';

const KEY = 'hivesight-theme';
export const DARK_CLASS = 'bp6-dark';

export function storedTheme(): Theme {
  try {
    return localStorage.getItem(KEY) === 'dark' ? 'dark' : 'light';
  } catch {
    return 'light';
  }
}

export function applyTheme(theme: Theme): void {
  document.body.classList.toggle(DARK_CLASS, theme === 'dark');
  document.documentElement.dataset.theme = theme;
  try {
    localStorage.setItem(KEY, theme);
  } catch {
    // Private mode: the choice lasts for this page only.
  }
}

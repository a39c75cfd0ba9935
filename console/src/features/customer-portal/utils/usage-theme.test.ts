import fc from 'fast-check';
import { formatMoney, usageTheme } from './usage-theme';

describe("the usage page's theme from its link", () => {
  it('takes https logos, hex colours, known locales and a short title', () => {
    const theme = usageTheme(
      new URLSearchParams({ logo: 'https://cdn.example.com/logo.svg', accent: '#0B7A53', text: '#222', locale: 'de-de', title: '  Ihre Nutzung ' }),
    );
    expect(theme).toEqual({ logo: 'https://cdn.example.com/logo.svg', accent: '#0B7A53', text: '#222', locale: 'de-DE', title: 'Ihre Nutzung' });
    expect(formatMoney('2.1', 'usd', theme.locale)).toMatch(/^2,10\s\$$/);
  });

  it('leaves out whatever is not of its kind, so a link cannot inject styles or scripts', () => {
    expect(usageTheme(new URLSearchParams({ logo: 'javascript:alert(1)', accent: 'red;background:url(x)', locale: '!!' }))).toEqual({
      title: 'Usage and billing',
    });
    fc.assert(
      fc.property(fc.string(), fc.string(), fc.string(), (logo, colour, locale) => {
        const theme = usageTheme(new URLSearchParams({ logo, accent: colour, background: colour, locale }));
        if (theme.logo !== undefined) expect(new URL(theme.logo).protocol).toBe('https:');
        for (const value of [theme.accent, theme.background]) if (value !== undefined) expect(value).toMatch(/^#([0-9a-f]{3}|[0-9a-f]{6})$/i);
        expect(theme.title.length).toBeLessThanOrEqual(80);
      }),
    );
  });
});

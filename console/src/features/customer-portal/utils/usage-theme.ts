/**
 * How the API company themes the embedded usage page, from the page's query parameters:
 *   logo        an https URL of its logo
 *   accent      the colour of buttons, links and bars (#rgb or #rrggbb)
 *   background  the page's background colour
 *   text        the text colour
 *   locale      the locale numbers, dates and currency are written in (BCP 47, e.g. de-DE)
 *   title       the page's heading (default "Usage and billing")
 * A value that is not of its kind is left out (the default applies), so a page link cannot inject styles.
 */
export interface UsageTheme {
  readonly logo?: string;
  readonly accent?: string;
  readonly background?: string;
  readonly text?: string;
  readonly locale?: string;
  readonly title: string;
}

const COLOUR = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i;

export function usageTheme(params: URLSearchParams): UsageTheme {
  const colour = (name: string) => {
    const value = params.get(name);
    return value !== null && COLOUR.test(value) ? value : undefined;
  };
  const logo = params.get('logo');
  const title = params.get('title')?.trim().slice(0, 80);
  const accent = colour('accent');
  const background = colour('background');
  const text = colour('text');
  const locale = knownLocale(params.get('locale'));
  return {
    title: title || 'Usage and billing',
    ...(logo !== null && isHttpsUrl(logo) ? { logo } : {}),
    ...(accent ? { accent } : {}),
    ...(background ? { background } : {}),
    ...(text ? { text } : {}),
    ...(locale ? { locale } : {}),
  };
}

function isHttpsUrl(text: string): boolean {
  try {
    return new URL(text).protocol === 'https:';
  } catch {
    return false;
  }
}

function knownLocale(text: string | null): string | undefined {
  if (!text) return undefined;
  try {
    return Intl.getCanonicalLocales(text)[0];
  } catch {
    return undefined;
  }
}

/** An amount (decimal text) in its currency, written in the theme's locale. */
export function formatMoney(amount: string, currency: string, locale: string | undefined): string {
  return new Intl.NumberFormat(locale, { style: 'currency', currency: currency.toUpperCase() }).format(Number(amount));
}

export function formatNumber(value: number, locale: string | undefined): string {
  return new Intl.NumberFormat(locale).format(value);
}

export function formatDate(iso: string, locale: string | undefined): string {
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone: 'UTC' }).format(new Date(iso));
}

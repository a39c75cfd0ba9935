import type { CSSProperties } from 'react';
import { useLocation, useParams } from 'react-router';
import { CustomerTemplates } from '../../features/charts/components/customer-templates';
import { CustomerUsageContent } from '../../features/customer-portal/components/customer-usage';
import { usageTheme, type UsageTheme } from '../../features/customer-portal/utils/usage-theme';

/** The theme's colours as the page's CSS variables (buttons, links and bars read --accent). */
function themeStyle(theme: UsageTheme): CSSProperties {
  return {
    ...(theme.accent ? { '--accent': theme.accent } : {}),
    ...(theme.background ? { background: theme.background } : {}),
    ...(theme.text ? { color: theme.text } : {}),
  } as CSSProperties;
}

/** A customer's usage and bill, opened from the link its API company minted (made to sit in that company's iframe). */
export function CustomerUsagePage() {
  const { token = '' } = useParams();
  const theme = usageTheme(new URLSearchParams(useLocation().search));
  return (
    <main id="main" className="embedded-page customer-page" style={themeStyle(theme)} lang={theme.locale}>
      <CustomerUsageContent token={token} theme={theme} />
    </main>
  );
}

/** The template charts a customer token opens. */
export function CustomerTemplatesPage() {
  const { token = '' } = useParams();
  const theme = usageTheme(new URLSearchParams(useLocation().search));
  return (
    <main id="main" className="embedded-page customer-page" style={themeStyle(theme)} lang={theme.locale}>
      <h1 className="embedded-title">{theme.title === 'Usage and billing' ? 'Your usage' : theme.title}</h1>
      <CustomerTemplates token={token} />
    </main>
  );
}

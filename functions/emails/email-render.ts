import type HandlebarsModule from 'handlebars';
import { ValidationError } from '../shared/errors';

/**
 * Subjects and bodies of behavioural emails, rendered with Handlebars in an environment of its own:
 * `{{token}}` is HTML-escaped in the body (a user's name or an event's field cannot inject markup),
 * `{{{token}}}` is not; the subject is a header and is not HTML-escaped (the transport encodes it).
 * Only Handlebars' built-in helpers exist, and prototype members are never reachable (its default).
 */
let loaded: typeof HandlebarsModule | undefined;
/**
 * Loaded on first use, not with the module: the management Lambda renders only when a template is
 * stored or tested, and loading Handlebars would otherwise cost every one of its cold starts.
 */
const engine = () => (loaded ??= (require('handlebars') as typeof HandlebarsModule).create());
const OPTIONS = { knownHelpersOnly: true, strict: false } as const;

export interface RenderedEmail {
  readonly subject: string;
  readonly html: string;
}

/** What a template's `{{…}}` can name: the recipient, its company, the period, the dynamic fields, the unsubscribe link. */
export type RenderContext = Record<string, unknown>;

export function renderEmail(template: { subject: string; html: string }, context: RenderContext): RenderedEmail {
  const subject = engine()
    .compile(template.subject, { ...OPTIONS, noEscape: true })(context)
    .replace(/[\r\n]+/g, ' ')
    .trim();
  const html = engine().compile(template.html, OPTIONS)(context);
  return { subject, html };
}

/** A template's subject and html must compile: a 400 naming the member when they do not (checked when stored). */
export function assertRenderable(template: { subject?: string; html?: string }): void {
  const parts: [string, string | undefined][] = [
    ['template.subject', template.subject],
    ['content.html', template.html],
  ];
  for (const [field, text] of parts) {
    if (text === undefined) continue;
    try {
      engine().precompile(text, OPTIONS);
    } catch (error) {
      const reason = `is not a valid template: ${(error instanceof Error ? error.message : String(error)).split('\n')[0]}`;
      throw new ValidationError(`Invalid ${field}: ${reason}`, [{ field, reason }]);
    }
  }
}

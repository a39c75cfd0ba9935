import { PriceFields } from '../../../schemas/billing/catalog';
import { EmailTemplateCreate } from '../../../schemas/resources/email-template';

/** Two refusals schemathesis found answered with a 500 or stored unlike the documents say. */
describe('refusals named, never thrown', () => {
  it('names an empty or non-decimal price as not a decimal, without a second check throwing on it', () => {
    for (const value of ['', 'abc', '1.2.3']) {
      const parsed = PriceFields.partial().safeParse({ price_in_decimal: value });
      expect(parsed.success).toBe(false);
      expect(parsed.error?.issues.map((issue) => [issue.path.join('.'), issue.message])).toEqual([
        ['price_in_decimal', 'must be a decimal number as text, e.g. "0.0025"'],
      ]);
    }
    expect(PriceFields.partial().safeParse({ price_in_decimal: '-1' }).error?.issues[0]?.message).toBe('must not be negative');
  });

  it('refuses an address whose local part is over 64 characters (RFC 5321), as the documents’ email format does', () => {
    const template = (bcc: string) => ({
      name: 'n',
      state: 0,
      addresses: { from: 'a@example.com', cc: [], bcc: [bcc] },
      template: { subject: 's', editor: 'html', thumbnail_url: 'https://example.com/t.png', design: {} },
      cohorts: [],
    });
    expect(EmailTemplateCreate.safeParse(template(`${'x'.repeat(64)}@example.com`)).error?.issues.filter((issue) => issue.path.includes('bcc')) ?? []).toEqual(
      [],
    );
    const refused = EmailTemplateCreate.safeParse(template(`${'x'.repeat(65)}@example.com`));
    expect(refused.error?.issues.find((issue) => issue.path.join('.') === 'addresses.bcc.0')?.message).toBe(
      'has a local part (before the @) over 64 characters',
    );
  });
});

import fc from 'fast-check';
import { assertRenderable, renderEmail } from '../../../functions/emails/email-render';
import { ValidationError } from '../../../functions/shared/errors';

describe('email rendering', () => {
  it('escapes values in the body, not in the subject, and keeps the subject on one line', () => {
    const rendered = renderEmail(
      { subject: 'Hi {{user.name}}\r\nBcc: x@y', html: '<p>{{user.name}}</p><p>{{{raw}}}</p>' },
      { user: { name: 'Ann <script>&' }, raw: '<b>ok</b>' },
    );
    expect(rendered.subject).toBe('Hi Ann <script>& Bcc: x@y');
    expect(rendered.html).toBe('<p>Ann &lt;script&gt;&amp;</p><p><b>ok</b></p>');
  });

  it('never lets a value become markup (property)', () => {
    fc.assert(
      fc.property(fc.string(), (value) => {
        const { html } = renderEmail({ subject: 's', html: '<p>{{value}}</p>' }, { value });
        expect(html.slice(3, -4)).not.toMatch(/[<>"]/);
      }),
    );
  });

  it('reaches no prototype members and no helpers beyond the built-in ones', () => {
    expect(renderEmail({ subject: 's', html: '{{constructor.name}}|{{__proto__}}' }, {}).html).toBe('|');
    expect(() => renderEmail({ subject: 's', html: '{{lookup . "x"}}{{shout x}}' }, { x: 'a' })).toThrow();
  });

  it('refuses a template that does not compile with a 400 naming the member', () => {
    expect(() => assertRenderable({ subject: 'ok {{', html: '<p/>' })).toThrow(ValidationError);
    try {
      assertRenderable({ subject: 'fine', html: '{{#each}}' });
    } catch (error) {
      expect((error as ValidationError).details[0]!.field).toBe('content.html');
    }
    expect(() => assertRenderable({ subject: 'Usage for {{user.name}}', html: '{{#if calls}}{{calls}}{{else}}none{{/if}}' })).not.toThrow();
  });
});

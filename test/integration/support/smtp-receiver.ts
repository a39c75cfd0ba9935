import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer, type SMTPServerOptions } from 'smtp-server';

/** A real SMTP server on a free port that keeps every message it accepts (parsed), for the local runtime's SMTP_URL. */
export async function startSmtpReceiver(
  options: Pick<SMTPServerOptions, 'onRcptTo'> = {},
): Promise<{ url: string; mails: ParsedMail[]; close: () => Promise<void> }> {
  const mails: ParsedMail[] = [];
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    ...options,
    onData(stream, _session, callback) {
      simpleParser(stream).then((mail) => {
        mails.push(mail);
        callback();
      }, callback);
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  return {
    url: `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}`,
    mails,
    close: () => new Promise<void>((resolve) => smtp.close(resolve)),
  };
}

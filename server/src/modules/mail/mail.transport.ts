import nodemailer from 'nodemailer';

export interface OutgoingMail {
  from: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  headers: Record<string, string>;
  messageId: string;
  attachments: MailAttachment[];
}

export interface MailAttachment {
  filename: string;
  contentType: string;
  content: Buffer;
}

export interface MailTransport {
  kind: 'smtp' | 'log';
  send(mail: OutgoingMail): Promise<void>;
  close(): void;
}

export interface TransportLog {
  info(obj: object, msg: string): void;
}

/** SMTP_URL (smtp://user:pass@host:587, smtps://… for TLS from the start), through nodemailer. */
export function smtpTransport(url: string): MailTransport {
  const transporter = nodemailer.createTransport(url);
  return {
    kind: 'smtp',
    async send(mail) {
      await transporter.sendMail({
        from: mail.from,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
        headers: mail.headers,
        messageId: mail.messageId,
        attachments: mail.attachments,
      });
    },
    close: () => transporter.close(),
  };
}

/** Without SMTP_URL the mail stays in the outbox (admins read it at /admin/outbox) and is named in the log. */
export function logTransport(log: TransportLog): MailTransport {
  return {
    kind: 'log',
    async send(mail) {
      log.info(
        { to: mail.to, subject: mail.subject, messageId: mail.messageId },
        'mail kept in the outbox (no SMTP_URL): read it at /admin/outbox',
      );
    },
    close() {},
  };
}

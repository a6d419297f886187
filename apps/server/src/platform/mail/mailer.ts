import type { FastifyInstance } from "fastify";
import nodemailer from "nodemailer";
import type { MailConfig } from "../config/index.ts";

/** One message to one person: plain text and HTML, in the person's language. */
export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html: string;
}

export interface Mailer {
  /** False without SMTP_URL: nothing can be sent (recovery by e-mail is then not offered). */
  readonly enabled: boolean;
  send(mail: OutgoingMail): Promise<void>;
  close(): void;
}

/** Mail over SMTP with nodemailer (one pooled transport per instance); a mailer that sends nothing without SMTP_URL. */
export function createMailer(config: MailConfig | undefined): Mailer {
  if (!config) {
    return {
      enabled: false,
      send: async () => {},
      close: () => {},
    };
  }
  const transport = nodemailer.createTransport(config.smtpUrl);
  return {
    enabled: true,
    async send(mail) {
      await transport.sendMail({ from: config.from, ...mail });
    },
    close: () => transport.close(),
  };
}

/**
 * Sends without making the request wait: an answer must not take longer (or fail) because a mail
 * relay is slow or down, or a request's timing would tell whether a message went out. A failure is
 * logged without the address.
 */
export function sendInBackground(app: FastifyInstance, mail: OutgoingMail | undefined): void {
  if (!mail || !app.mailer.enabled) return;
  app.mailer.send(mail).catch((error: unknown) => {
    app.log.warn({ err: error, subject: mail.subject }, "mail could not be sent");
  });
}

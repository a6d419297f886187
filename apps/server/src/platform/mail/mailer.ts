import type { FastifyInstance } from "fastify";
import type { MailConfig } from "../config/index.ts";
import { loadOnce } from "../load-once.ts";

const loadNodemailer = loadOnce(() => import("nodemailer"));

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

/**
 * Mail over SMTP with nodemailer (one pooled transport per instance, made on the first message: nodemailer
 * is loaded then, not at start-up); a mailer that sends nothing without SMTP_URL.
 */
export function createMailer(config: MailConfig | undefined): Mailer {
  if (!config) {
    return {
      enabled: false,
      send: async () => {},
      close: () => {},
    };
  }
  const transport = loadOnce(async () => (await loadNodemailer()).default.createTransport(config.smtpUrl));
  let made: Awaited<ReturnType<typeof transport>> | undefined;
  return {
    enabled: true,
    async send(mail) {
      made = await transport();
      await made.sendMail({ from: config.from, ...mail });
    },
    close: () => made?.close(),
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

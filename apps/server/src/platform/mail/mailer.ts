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
  // The transport being made by the first send, so a close while it is made still closes it.
  let opened: ReturnType<typeof transport> | undefined;
  return {
    enabled: true,
    async send(mail) {
      opened = transport();
      await (await opened).sendMail({ from: config.from, ...mail });
    },
    close: () => {
      // A transport that could not be made has nothing to close; its send already reported why.
      opened?.then((made) => made.close()).catch(() => {});
    },
  };
}

/** What sending in the background needs of the app: its mailer and a log for the failures. */
export interface BackgroundMail {
  mailer: Mailer;
  log: { warn: (details: { err: unknown; subject: string }, message: string) => void };
}

/**
 * Sends without making the request wait: an answer must not take longer (or fail) because a mail
 * relay is slow or down, or a request's timing would tell whether a message went out. A failure is
 * logged without the address.
 */
export function sendInBackground(app: BackgroundMail, mail: OutgoingMail | undefined): void {
  if (!mail || !app.mailer.enabled) return;
  app.mailer.send(mail).catch((error: unknown) => {
    app.log.warn({ err: error, subject: mail.subject }, "mail could not be sent");
  });
}

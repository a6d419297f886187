import type { AddressInfo } from "node:net";
import Fastify from "fastify";
import { SMTPServer } from "smtp-server";
import type { RunningStandIn, SandboxOptions } from "../stand-in.ts";
import { Inbox } from "./inbox.ts";
import { registerInboxPages } from "./pages.ts";

export interface MailStandInOptions {
  /** The inbox page's port; 0 picks a free one. The SMTP port is always picked free. */
  port: number;
}

export interface RunningMailStandIn extends RunningStandIn {
  inbox: Inbox;
  smtpUrl: string;
}

function listenSmtp(server: SMTPServer): Promise<number> {
  return new Promise((resolve, reject) => {
    server.server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve((server.server.address() as AddressInfo).port));
  });
}

/**
 * Starts the mail stand-in: an SMTP server (smtp-server) on a free loopback port that keeps every
 * message it receives (parsed by mailparser), and an inbox page to read them. The product sends
 * through nodemailer to SMTP_URL as it would to a real relay.
 */
export async function startMailStandIn(options: MailStandInOptions): Promise<RunningMailStandIn> {
  const inbox = new Inbox();
  const smtp = new SMTPServer({
    authOptional: true,
    // Loopback only; no certificate to offer, so no STARTTLS.
    disabledCommands: ["STARTTLS"],
    logger: false,
    size: 1024 * 1024,
    onData(stream, session, callback) {
      const recipients = session.envelope.rcptTo.map((rcpt) => rcpt.address);
      inbox.receive(stream, recipients).then(
        () => callback(),
        (error: Error) => callback(error),
      );
    },
  });
  const smtpPort = await listenSmtp(smtp);
  const app = Fastify({ logger: false });
  registerInboxPages(app, inbox);
  await app.listen({ host: "127.0.0.1", port: options.port });
  const address = app.server.address();
  const url = `http://localhost:${typeof address === "object" && address ? address.port : options.port}`;
  const smtpUrl = `smtp://127.0.0.1:${smtpPort}`;
  return {
    name: "mail",
    url,
    inbox,
    smtpUrl,
    env: { SMTP_URL: smtpUrl, MAIL_SANDBOX: "true" },
    close: async () => {
      await app.close();
      await new Promise<void>((resolve) => smtp.close(() => resolve()));
    },
  };
}

/** The sandbox starter: a real mail relay configured in the environment wins, and then nothing starts. */
export async function startMailSandbox(options: SandboxOptions): Promise<RunningStandIn | undefined> {
  if (options.env.SMTP_URL) return undefined;
  return startMailStandIn({ port: options.mailPort ?? 3003 });
}

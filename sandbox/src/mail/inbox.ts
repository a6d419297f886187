import type { Readable } from "node:stream";
import { type AddressObject, simpleParser } from "mailparser";

/** One message the stand-in received, as the inbox page and the tests read it. */
export interface ReceivedMail {
  id: number;
  from: string;
  to: string[];
  subject: string;
  text: string;
  html: string;
  language: string;
  receivedAt: string;
}

const addressesOf = (field: AddressObject | AddressObject[] | undefined) =>
  (Array.isArray(field) ? field : field ? [field] : []).flatMap((object) =>
    object.value.map((entry) => entry.address?.toLowerCase() ?? ""),
  );

/** The messages received so far, newest last; waiting for one does not poll. */
export class Inbox {
  readonly messages: ReceivedMail[] = [];
  private waiters: (() => void)[] = [];

  /** Parses a raw message (mailparser) and keeps it; `recipients` are the SMTP envelope's. */
  async receive(raw: Readable, recipients: string[]): Promise<ReceivedMail> {
    const parsed = await simpleParser(raw);
    const headerLanguage = parsed.headers.get("content-language");
    const mail: ReceivedMail = {
      id: this.messages.length + 1,
      from: parsed.from?.text ?? "",
      to: [...new Set([...recipients.map((address) => address.toLowerCase()), ...addressesOf(parsed.to)])],
      subject: parsed.subject ?? "",
      text: parsed.text ?? "",
      html: typeof parsed.html === "string" ? parsed.html : "",
      language:
        typeof headerLanguage === "string"
          ? headerLanguage
          : (/<html lang="([a-z]+)"/.exec(parsed.html || "")?.[1] ?? ""),
      receivedAt: new Date().toISOString(),
    };
    this.messages.push(mail);
    for (const wake of this.waiters.splice(0)) wake();
    return mail;
  }

  /** The messages to this address, oldest first. */
  to(address: string): ReceivedMail[] {
    return this.messages.filter((mail) => mail.to.includes(address.toLowerCase()));
  }

  /** The first message from `after` on (an index into messages) that matches; waits until one arrives. */
  async waitFor(matches: (mail: ReceivedMail) => boolean, after = 0): Promise<ReceivedMail> {
    for (;;) {
      const found = this.messages.slice(after).find(matches);
      if (found) return found;
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
  }
}

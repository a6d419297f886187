import type { FastifyInstance } from "fastify";
import { type RunningMailStandIn, startMailStandIn } from "../../../../sandbox/src/mail/index.ts";
import { addPerson } from "./campus.ts";

/** The sandbox's mail stand-in (real SMTP, parsed by mailparser) on free ports. */
export function startTestMail(): Promise<RunningMailStandIn> {
  return startMailStandIn({ port: 0 });
}

/** A person whose address KPI ID has seen proven, so security mail goes to it. */
export async function addPersonWithVerifiedEmail(
  app: FastifyInstance,
  person: { username: string; fullName: string; email: string },
  password: string,
) {
  const user = await addPerson(app, person, password);
  await app.db.updateTable("users").set({ verified_email: person.email }).where("id", "=", user.id).execute();
  return user;
}

/** The link a reset message carries, and its token. */
export function resetLinkIn(text: string): { url: string; token: string } {
  const url = /(https?:\/\/\S+\/reset-password#token=([A-Za-z0-9_-]+))/.exec(text);
  if (!url?.[1] || !url[2]) throw new Error(`no reset link in: ${text}`);
  return { url: url[1], token: url[2] };
}

import type { CasFailureCode } from "@kpi-id/contracts";
import type { FastifyReply } from "fastify";
import type { CasFailure, CasProxyAnswer, CasValidation } from "./answer-types.ts";

export type { CasFailure, CasProxyAnswer, CasValidation } from "./answer-types.ts";

export const casFailure = (code: CasFailureCode, description: string): CasFailure => ({
  kind: "failure",
  code,
  description,
});

// The validations are read by servers, never cached by anything between.
function noStore(reply: FastifyReply) {
  return reply.header("cache-control", "no-store");
}

/** XML (the default) or, with `format=JSON`, the same answer as Apereo CAS writes it in JSON (§2.5.2 / 2.6.2). */
export async function sendValidation(reply: FastifyReply, answer: CasValidation | CasFailure, json: boolean) {
  if (json)
    return noStore(reply)
      .type("application/json; charset=utf-8")
      .send({ serviceResponse: jsonOf(answer) });
  const { validationXml } = await import("./xml.ts");
  return noStore(reply).type("application/xml; charset=utf-8").send(validationXml(answer));
}

function jsonOf(answer: CasValidation | CasFailure) {
  if (answer.kind === "failure") {
    return { authenticationFailure: { code: answer.code, description: answer.description } };
  }
  return {
    authenticationSuccess: {
      user: answer.user,
      ...(answer.pgtIou && { proxyGrantingTicket: answer.pgtIou }),
      ...(answer.proxies.length > 0 && { proxies: answer.proxies }),
      ...(answer.attributes && { attributes: answer.attributes }),
    },
  };
}

export async function sendProxyAnswer(reply: FastifyReply, answer: CasProxyAnswer, json: boolean) {
  if (json) {
    const body =
      answer.kind === "success"
        ? { proxySuccess: { proxyTicket: answer.proxyTicket } }
        : { proxyFailure: { code: answer.code, description: answer.description } };
    return noStore(reply).type("application/json; charset=utf-8").send({ serviceResponse: body });
  }
  const { proxyXml } = await import("./xml.ts");
  return noStore(reply).type("application/xml; charset=utf-8").send(proxyXml(answer));
}

/** CAS 1.0 /validate: "yes\n{user}\n" or "no\n\n" (§2.4.2). */
export function sendCas1(reply: FastifyReply, user: string | undefined) {
  return noStore(reply)
    .type("text/plain; charset=utf-8")
    .send(user === undefined ? "no\n\n" : `yes\n${user}\n`);
}

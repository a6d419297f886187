import type { FastifyInstance } from "fastify";
import { deliverCallback } from "./callback-delivery.ts";
import type { PhonePerson } from "./people.ts";
import { consentPage, resultPage } from "./phone-pages.ts";
import { signRequestHash } from "./pki.ts";
import { signInShape } from "./signature-shapes.ts";
import type { OfferRequest, StandInState } from "./state.ts";

interface PhoneOptions {
  state: StandInState;
  people: PhonePerson[];
  /** Where "Diia" delivers signed sign-ins: the product's callback endpoint. */
  callbackUrl: string;
}

function openRequest(state: StandInState, otp: string): OfferRequest | undefined {
  const request = state.offerRequests.get(otp);
  return request && !request.used && Date.now() < request.expiresAt ? request : undefined;
}

/** The "phone": the deep link opens a consent page; confirming signs with the chosen person's key. */
export function registerPhone(app: FastifyInstance, { state, people, callbackUrl }: PhoneOptions): void {
  app.addContentTypeParser("application/x-www-form-urlencoded", { parseAs: "string" }, (_request, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(String(body))));
  });

  app.get<{ Params: { otp: string } }>("/acquirers/offer-request/dynamic/:otp", async (request, reply) => {
    const offerRequest = openRequest(state, request.params.otp);
    reply.type("text/html; charset=utf-8");
    if (!offerRequest) return reply.code(410).send(resultPage("gone"));
    return consentPage(offerRequest, people);
  });

  app.post<{ Params: { otp: string }; Body: Record<string, string> }>(
    "/acquirers/offer-request/dynamic/:otp",
    async (request, reply) => {
      reply.type("text/html; charset=utf-8");
      const offerRequest = openRequest(state, request.params.otp);
      if (!offerRequest) return reply.code(410).send(resultPage("gone"));
      // A deep link is single-use, whatever the answer.
      offerRequest.used = true;
      if (request.body?.action !== "confirm") return resultPage("declined");
      const person = people.find((each) => each.id === request.body?.person);
      if (!person) return reply.code(400).send(resultPage("refused", "Unknown person"));
      const signature = person.shape
        ? signInShape(person.party, person.shape.issuer, offerRequest.requestId, person.shape.kind)
        : signRequestHash(person.party, offerRequest.requestId);
      try {
        const began = performance.now();
        const delivery = await deliverCallback(callbackUrl, offerRequest.requestId, signature);
        // How long the partner took to answer its callback, apart from this phone's own signing: the campus rush
        // (bench/lib/rush/sign-ins.ts) times KPI ID's request by it.
        reply.header("server-timing", `callback;dur=${(performance.now() - began).toFixed(1)}`);
        if (delivery.accepted) return resultPage("sent");
        return resultPage("refused", delivery.status === 200 ? "success: false" : `HTTP ${delivery.status}`);
      } catch (error) {
        request.log.warn({ err: error }, "callback delivery failed");
        return resultPage("refused", "The service did not answer");
      }
    },
  );
}

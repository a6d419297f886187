import formbody from "@fastify/formbody";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { showRefusalsAsPage } from "../../platform/http/browser-errors.ts";
import type { Binding, LogoutFields } from "./incoming.ts";
import { logoutRoundPath, samlPaths } from "./paths.ts";
import { messageFields, pendingIdParams, refusal } from "./sso-routes.ts";

/** A logout message by either binding (LogoutFields): a LogoutRequest (SAMLRequest) or a LogoutResponse (SAMLResponse). */
const logoutFields = messageFields.extend({ SAMLResponse: messageFields.shape.SAMLRequest });

/** Reading logout messages and writing the next ones needs samlify and xmldom: loaded on first use (issue 41). */
const receiving = () => import("./logout-receive.ts");
const steps = () => import("./logout-steps.ts");

/**
 * Single Logout, front-channel (saml-profiles §4.4). An SP's signed LogoutRequest ends the
 * KPI ID session its session belongs to; then the browser carries a signed LogoutRequest to
 * every other SP of that session in turn (/saml/logout/{round}), each answering here with a
 * LogoutResponse, and last the initiator gets its LogoutResponse.
 */
export const sloRoutes: FastifyPluginAsyncZod = async (app) => {
  showRefusalsAsPage(app);
  await app.register(formbody, { bodyLimit: 256 * 1024 });

  const schema = {
    tags: ["saml"],
    summary: "SAML 2.0 Single Logout (LogoutRequest or LogoutResponse by HTTP-Redirect or HTTP-POST)",
    description:
      "A signed LogoutRequest from a registered SP ends the KPI ID session and starts front-channel logout of the session's other SPs; a LogoutResponse from an SP KPI ID asked continues it.",
  };
  const handle = (request: FastifyRequest, reply: FastifyReply, binding: Binding, fields: LogoutFields) =>
    receiving()
      .then(({ receiveLogout }) => receiveLogout(request, reply, binding, fields))
      .catch((error: unknown) => {
        throw refusal(request, error);
      });
  app.get(samlPaths.slo, { schema: { ...schema, querystring: logoutFields } }, (request, reply) =>
    handle(request, reply, "redirect", request.query),
  );
  app.post(samlPaths.slo, { schema: { ...schema, body: logoutFields }, config: { csrf: false } }, (request, reply) =>
    handle(request, reply, "post", request.body),
  );

  app.get(
    `${logoutRoundPath(":id")}`,
    {
      schema: {
        tags: ["saml"],
        summary: "The next step of a front-channel Single Logout",
        description:
          "Sends the browser with a signed LogoutRequest to the next SP of the ended session, or, when all were told, to the initiator's LogoutResponse or KPI ID's sign-in screen.",
        params: pendingIdParams,
      },
    },
    (request, reply) =>
      steps()
        .then(({ continueLogout }) => continueLogout(request, reply, request.params.id))
        .catch((error: unknown) => {
          throw refusal(request, error);
        }),
  );
};

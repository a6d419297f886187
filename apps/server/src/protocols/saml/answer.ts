import type { FastifyReply, FastifyRequest } from "fastify";
import type { ServiceProviderRow } from "../../model/saml/service-providers.ts";
import { recordSamlSession } from "../../model/saml/sessions.ts";
import type { LoadedSession } from "../../model/sessions/store.ts";
import { isMultiFactor, lastAuthenticatedAt } from "../../model/sessions/strength.ts";
import { sendPostForm } from "../../platform/http/post-form.ts";
import { pairwiseIdOf, releaseAttributes, releasedAttributeNames } from "./attributes.ts";
import type { EntityOptions } from "./entities.ts";
import { type Addressee, signedLoginResponse, signedStatusResponse } from "./login-response.ts";
import { authnContexts } from "./namespaces.ts";
import { samlPaths } from "./paths.ts";

export interface Destination {
  sp: ServiceProviderRow;
  requestId: string;
  acsUrl: string;
  relayState: string | null;
}

async function entitiesFor(request: FastifyRequest, sp: ServiceProviderRow): Promise<EntityOptions> {
  const { config, saml } = request.server;
  const { signing } = await saml.currentKeys();
  if (!signing) throw new Error("no SAML signing key");
  return { idpEntityId: config.saml.entityId, ssoUrl: `${config.publicUrl}${samlPaths.sso}`, key: signing, sp };
}

function addresseeOf(request: FastifyRequest, to: Destination): Addressee {
  const { config, clock } = request.server;
  return {
    idpEntityId: config.saml.entityId,
    spEntityId: to.sp.entity_id,
    acsUrl: to.acsUrl,
    requestId: to.requestId,
    now: clock(),
  };
}

/** Answers the SP with a status and no assertion (NoPassive, NoAuthnContext, RequestDenied). */
export async function answerStatus(request: FastifyRequest, reply: FastifyReply, to: Destination, status: string) {
  const response = signedStatusResponse(await entitiesFor(request, to.sp), addresseeOf(request, to), status);
  return sendPostForm(reply, to.acsUrl, { SAMLResponse: response, RelayState: to.relayState });
}

/** Answers the SP with the signed-in person: the assertion, the released attributes, a SAML session for logout. */
export async function answerSignedIn(
  request: FastifyRequest,
  reply: FastifyReply,
  to: Destination,
  session: LoadedSession,
) {
  const { config, db } = request.server;
  const context = {
    user: session.user,
    spEntityId: to.sp.entity_id,
    scope: config.saml.scope,
    pairwiseSalt: config.saml.pairwiseSalt,
  };
  const nameId = pairwiseIdOf(context);
  const sessionIndex = `_${session.id.replaceAll("-", "")}`;
  const addressee = addresseeOf(request, to);
  const response = await signedLoginResponse(await entitiesFor(request, to.sp), addressee, {
    nameId,
    sessionIndex,
    authnInstant: lastAuthenticatedAt(session),
    // REFEDS MFA when the session proved more than one factor (a second factor, a passkey, Diia).
    authnContext: isMultiFactor(session) ? authnContexts.mfa : authnContexts.passwordProtectedTransport,
    attributes: releaseAttributes(releasedAttributeNames(to.sp), context),
  });
  await recordSamlSession(db, {
    sessionId: session.id,
    spEntityId: to.sp.entity_id,
    nameId,
    sessionIndex,
    now: addressee.now,
  });
  return sendPostForm(reply, to.acsUrl, { SAMLResponse: response, RelayState: to.relayState });
}

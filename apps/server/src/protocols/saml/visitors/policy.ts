import type { FastifyInstance } from "fastify";
import { federationSource } from "../../../model/saml/federations.ts";
import type { InstitutionPolicy } from "../../../model/saml/identity-providers.ts";

/** The federations and institutions operators let visitors come from (SAML_VISITOR_*). */
export function institutionPolicy(app: FastifyInstance): InstitutionPolicy {
  const { federations, institutions } = app.config.saml.visitors;
  return { sources: federations.map(federationSource), allowed: institutions };
}

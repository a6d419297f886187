import type { IntegrationFailureReason, SignInContinuing } from "@kpi-id/contracts";
import type { FastifyInstance } from "fastify";
import { findApplicationById } from "../model/apps/queries.ts";
import { applicationStage } from "../model/developers/testing.ts";
import type { SignOutParticipant } from "../model/sessions/sign-out.ts";
import type { Db } from "../platform/db/schema.ts";

/**
 * What a protocol is to the rest of KPI ID (issue 74), registered once in protocols/registry.ts: its routes, where
 * a sign-in it paused continues, its part in every sign-out, the integration-health reasons it records, and the
 * rows it keeps that the clean-up expires. A seventh protocol is its own folder and one line in the registry.
 */
/** Every protocol's name: what the registry lists and `buildApp({ protocols })` may name. */
export type ProtocolName = "tickets" | "oidc" | "saml" | "cas" | "forward-auth" | "scim" | "radius" | "ldap";

export interface ProtocolRecord {
  /** The protocol's folder, and the name buildApp's `protocols` option picks it by. */
  readonly name: ProtocolName;
  /** Its routes, hooks and decorations. */
  register(app: FastifyInstance): Promise<void> | void;
  /** What it does when sessions end (model/sessions/sign-out.ts); added after `register`, in the registry's order. */
  signOut?(app: FastifyInstance): SignOutParticipant<unknown>;
  /**
   * The application a sign-in it paused continues to, named on the sign-in page: `waiting` is the id the protocol
   * put in the continue cookie (`{ kind: "protocol", waiting }`); undefined when that has ended or names none.
   */
  continuingTo?(app: FastifyInstance, waiting: string): Promise<SignInContinuing | undefined>;
  /** The name its refusals carry in integration_failures, and the reasons it records there. */
  readonly health?: { protocol: "ticket" | "oidc" | "cas"; reasons: readonly IntegrationFailureReason[] };
  /** Its own expired rows, deleted in the clean-up's transaction (surfaces/maintenance/cleanup.ts), counted by kind. */
  cleanUp?(db: Db, now: Date): Promise<Record<string, number>>;
}

/** The gate's refusals every protocol that issues to an application records (sign-in/gate/gate.ts's table). */
export const gateHealthReasons = ["no_access", "in_testing", "suspended"] as const;

/** How the sign-in page names an application a paused sign-in continues to. */
export async function continuingToApplication(db: Db, applicationId: string): Promise<SignInContinuing | undefined> {
  const application = await findApplicationById(db, applicationId);
  if (!application) return undefined;
  return { title: application.title, titleEn: application.title_en, stage: applicationStage(application) };
}

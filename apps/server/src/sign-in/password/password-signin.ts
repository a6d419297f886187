import type { LoginRequest, LoginResponse } from "@kpi-id/contracts";
import type { FastifyRequest } from "fastify";
import { issueLoginGrant } from "../../model/sessions/grants.ts";
import { findUserByUsername } from "../../model/users/queries.ts";
import type { User } from "../../platform/db/schema.ts";
import { AppError } from "../../platform/errors.ts";
import { audit, countAuditEvent, requestAuditedStatement } from "../../platform/http/audit.ts";
import { fromBrowser } from "../../platform/http/security.ts";
import { confirmFailure, withSuccessSettled } from "../../platform/throttle/throttle.ts";
import { takeCredentialAttempt } from "../grants/credential-attempt.ts";
import { secondFactorDecision } from "../mfa/decision.ts";

/** Why a sign-in is refused, for the audit row only: the person always sees invalid credentials. */
function refusalReason(user: User | undefined, passwordMatches: boolean): string | undefined {
  if (!user) return "user.unknown";
  if (!passwordMatches) return "auth.invalid_credentials";
  if (user.status !== "active") return "user.disabled";
  return undefined;
}

/**
 * Checks a username and password and hands out a one-time login grant.
 * Unknown user, wrong password and disabled account give the same answer after
 * the same work (a hash is verified in every case); only the audit row differs.
 */
export async function signInWithPassword(request: FastifyRequest, credentials: LoginRequest): Promise<LoginResponse> {
  const { db, config, passwordHasher, clock } = request.server;
  let databaseSeconds = 0;
  const inDatabase = async <T>(statement: Promise<T>): Promise<T> => {
    const began = performance.now();
    try {
      return await statement;
    } finally {
      databaseSeconds += (performance.now() - began) / 1000;
    }
  };
  const user = await inDatabase(findUserByUsername(db, credentials.username));
  // The attempt is counted in the check's turn, not before: a check refused because the instance is busy (or
  // skipped because the client has gone) counts nothing against the person. An unknown user queues and hashes
  // like a known one, so neither the wait nor the answer tells them apart.
  const { keys, decision, passwordMatches } = await passwordHasher.inTurn(
    async (turn) => {
      const keys = await inDatabase(
        takeCredentialAttempt(request, credentials.username, {
          type: "sign_in",
          authMethod: "PASSWORD",
          userId: user?.id,
        }),
      );
      // Read while the hash runs: it does not depend on the password. Handled at once, so a refused sign-in that
      // never awaits it leaves no unhandled rejection behind.
      const decision = user?.status === "active" ? secondFactorDecision(request, user) : undefined;
      decision?.catch(() => undefined);
      return { keys, decision, passwordMatches: await turn.verify(user?.password_hash ?? null, credentials.password) };
    },
    () => request.raw.socket?.destroyed === true,
  );
  const refusal = refusalReason(user, passwordMatches);
  if (refusal !== undefined || !user || !decision) {
    await inDatabase(confirmFailure(db, keys, clock()));
    request.server.metrics?.passwordSignIn.observeSignInDatabase(databaseSeconds);
    await audit(request, {
      type: "sign_in",
      result: "failure",
      authMethod: "PASSWORD",
      userId: user?.id,
      reason: refusal,
    });
    throw new AppError("auth.invalid_credentials");
  }

  const { amr, secondFactor, setUpSecondFactor } = await decision;
  // The grant, its audit row and the attempt given back: one statement, one commit, which fails closed if a
  // crash forgets it (db/commit.ts).
  const success = { type: "sign_in", result: "success", authMethod: "PASSWORD", userId: user.id } as const;
  const grant = await inDatabase(
    issueLoginGrant(
      withSuccessSettled(requestAuditedStatement(request, success, { waitForDisk: !fromBrowser(request) }), keys),
      { userId: user.id, authMethod: "PASSWORD", amr, secondFactorDue: secondFactor !== undefined },
      config.loginGrantTtlSeconds,
      clock(),
    ),
  );
  request.server.metrics?.passwordSignIn.observeSignInDatabase(databaseSeconds);
  countAuditEvent(request, success);
  return {
    sessionId: grant,
    ...(secondFactor ? { secondFactor } : {}),
    ...(setUpSecondFactor ? { setUpSecondFactor } : {}),
  };
}

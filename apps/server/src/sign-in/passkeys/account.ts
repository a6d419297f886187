import type { Passkey, PasskeyList } from "@kpi-id/contracts";
import type { FastifyRequest } from "fastify";
import { listPasskeys, removePasskey, renamePasskey } from "../../model/passkeys/credentials.ts";
import { requireRecentSignInWithSecondFactor } from "../../model/sessions/recent-sign-in.ts";
import type { LoadedSession } from "../../model/sessions/store.ts";
import { AppError } from "../../platform/errors.ts";
import { audit } from "../../platform/http/audit.ts";
import { notifySignInMethodChanged } from "../../platform/http/notify.ts";
import { reauthWindow } from "../../platform/http/reauth.ts";

export async function passkeysOf(request: FastifyRequest, session: LoadedSession): Promise<PasskeyList> {
  return { passkeys: await listPasskeys(request.server.db, session.userId) };
}

/** A new name for one of the person's passkeys; 404 `passkey.not_found` for anyone else's. */
export async function renameOwnPasskey(
  request: FastifyRequest,
  session: LoadedSession,
  id: string,
  name: string,
): Promise<Passkey> {
  const { db } = request.server;
  if (!(await renamePasskey(db, session.userId, id, name))) throw new AppError("passkey.not_found");
  const renamed = (await listPasskeys(db, session.userId)).find((passkey) => passkey.id === id);
  if (!renamed) throw new AppError("passkey.not_found");
  return renamed;
}

/** Removing a passkey is a sensitive change: it needs a recent sign-in, and it is audited. */
export async function removeOwnPasskey(request: FastifyRequest, session: LoadedSession, id: string): Promise<void> {
  await requireRecentSignInWithSecondFactor(session, reauthWindow(request));
  if (!(await removePasskey(request.server.db, session.userId, id))) throw new AppError("passkey.not_found");
  await audit(request, {
    type: "second_factor_changed",
    result: "success",
    userId: session.userId,
    reason: "passkey_removed",
    details: { passkey: id },
  });
  notifySignInMethodChanged(request, session.user, "PASSKEY", "removed");
}

import { chmodSync, rmSync } from "node:fs";
import { createServer, type Server, type Socket } from "node:net";
import { readSockRequest, type SockBind, sockRequestLimit, sockResult } from "./sock.ts";

/** LDAP result codes the responder answers with (RFC 4511). */
export const ldapResult = { success: 0, confidentialityRequired: 13, invalidCredentials: 49, unavailable: 52 } as const;

/**
 * slapd waits for the sock overlay's answer without a timeout of its own, holding the client's bind (and one of
 * its threads) meanwhile: the responder always answers within this, with 52 (unavailable) when KPI ID could not
 * decide in time (a slow or unreachable database), so the client retries or tries another server.
 */
export const answerWithinMs = 2_000;

export interface BindResponder {
  close(): Promise<void>;
}

/** Decides one simple bind: the LDAP result code to answer. */
export type DecideBind = (bind: SockBind) => Promise<number>;

function answer(socket: Socket, code: number): void {
  if (socket.destroyed) return;
  socket.end(sockResult(code));
}

function serve(socket: Socket, decide: DecideBind, onError: (error: unknown) => void): void {
  let received = Buffer.alloc(0);
  let answered = false;
  let deciding = false;
  const finish = (code: number) => {
    if (answered) return;
    answered = true;
    clearTimeout(deadline);
    answer(socket, code);
  };
  const deadline = setTimeout(() => finish(ldapResult.unavailable), answerWithinMs);
  socket.on("error", () => finish(ldapResult.unavailable));
  socket.on("data", (chunk: Buffer) => {
    if (answered) return;
    received = Buffer.concat([received, chunk]);
    if (received.length > sockRequestLimit) return finish(ldapResult.invalidCredentials);
    const request = readSockRequest(received);
    if (!request.complete) return;
    // Only simple binds are ours; anything else slapd might forward is refused, never crashes the responder.
    const bind = request.bind?.method === 128 ? request.bind : undefined;
    if (!bind) return finish(ldapResult.invalidCredentials);
    deciding = true;
    decide(bind).then(finish, (error: unknown) => {
      onError(error);
      finish(ldapResult.unavailable);
    });
  });
  // slapd may close its side once the request is written: the answer still goes back (allowHalfOpen below).
  socket.on("end", () => {
    if (!deciding) finish(ldapResult.invalidCredentials);
  });
}

/**
 * Listens on a UNIX socket for slapd's sock overlay (deploy/openldap/slapd.conf, `overlay sock`) and answers each
 * BIND with the code `decide` gives, within `answerWithinMs`. The socket is made fresh (a stale one from a
 * crashed run is removed) and left readable and writable by its owner and group only: slapd's user is in the
 * group (docs/ldap.md), nobody else can ask.
 */
export function startBindResponder(
  path: string,
  decide: DecideBind,
  onError: (error: unknown) => void,
): Promise<BindResponder> {
  rmSync(path, { force: true });
  const server: Server = createServer({ allowHalfOpen: true }, (socket) => serve(socket, decide, onError));
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(path, () => {
      server.off("error", reject);
      chmodSync(path, 0o660);
      resolve({
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            rmSync(path, { force: true });
          }),
      });
    });
  });
}

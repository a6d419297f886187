import { isIP } from "node:net";

// slapd's sock overlay (man slapd-sock): for each operation it is told to forward, slapd opens the UNIX socket,
// writes the request as "KEY: value" lines ending with a blank line, reads the answer and closes. A BIND is
//   BIND\nmsgid: 2\nbinddn: \npeername: IP=127.0.0.1:53424\nssf: 256\nconnid: 1002\nsuffix: dc=kpi,dc=ua\n
//   dn: uid=olena,ou=people,dc=kpi,dc=ua\nmethod: 128\ncredlen: 4\ncred: <4 bytes>\n\n
// (binddn, peername, ssf and connid only with `extensions`). The credentials are raw bytes of `credlen`
// length: a password may hold a newline, so they are cut by length, never by line.

/** Larger than any bind slapd sends (a DN and a password); a connection sending more is answered and closed. */
export const sockRequestLimit = 16 * 1024;

export interface SockBind {
  dn: string;
  /** 128: a simple bind. SASL binds never come here. */
  method: number;
  credentials: string;
  peer?: string;
  ssf: number;
  connection?: string;
}

export type SockRequest = { complete: false } | { complete: true; bind?: SockBind; command: string };

const credPrefix = Buffer.from("cred: ");

/** The client's address from `peername: IP=<address>:<port>` (IPv6 in brackets or bare). */
export function peerAddress(peername: string | undefined): string | undefined {
  const match = /^IP=\[?([0-9a-fA-F:.]+?)\]?:\d+$/.exec(peername ?? "");
  const address = match?.[1];
  return address && isIP(address) !== 0 ? address : undefined;
}

function headerLines(text: string): Map<string, string> {
  const fields = new Map<string, string>();
  for (const line of text.split("\n")) {
    const colon = line.indexOf(": ");
    if (colon > 0) fields.set(line.slice(0, colon).toLowerCase(), line.slice(colon + 2));
    else if (line.endsWith(":")) fields.set(line.slice(0, -1).toLowerCase(), "");
  }
  return fields;
}

/**
 * Reads what slapd sent so far: incomplete until the whole request is there. Anything other than a well-formed
 * BIND is a command without a bind (answered as refused by the responder, never a crash).
 */
export function readSockRequest(received: Buffer): SockRequest {
  const firstLineEnd = received.indexOf("\n");
  if (firstLineEnd < 0) return { complete: false };
  const command = received.subarray(0, firstLineEnd).toString("utf8").trim();
  if (command !== "BIND") {
    return received.indexOf("\n\n") >= 0 ? { complete: true, command } : { complete: false };
  }
  const credAt = received.indexOf(Buffer.concat([Buffer.from("\n"), credPrefix]));
  if (credAt < 0) return received.indexOf("\n\n") >= 0 ? { complete: true, command } : { complete: false };
  const fields = headerLines(received.subarray(0, credAt).toString("utf8"));
  const length = Number(fields.get("credlen"));
  if (!Number.isSafeInteger(length) || length < 0 || length > sockRequestLimit) return { complete: true, command };
  const start = credAt + 1 + credPrefix.length;
  if (received.length < start + length + 1) return { complete: false };
  const method = Number(fields.get("method"));
  const ssf = Number(fields.get("ssf") ?? "0");
  return {
    complete: true,
    command,
    bind: {
      dn: fields.get("dn") ?? "",
      method,
      credentials: received.subarray(start, start + length).toString("utf8"),
      peer: peerAddress(fields.get("peername")),
      ssf: Number.isFinite(ssf) ? ssf : 0,
      connection: fields.get("connid"),
    },
  };
}

/** slapd's answer: the result code ends the bind there (0 bound, 49 invalid credentials, 52 unavailable). */
export function sockResult(code: number): string {
  // No matched DN and no text: slapd would pass empty ones on, and clients print them as if they said something.
  return `RESULT\ncode: ${code}\n\n`;
}

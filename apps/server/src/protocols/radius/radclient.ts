import { spawn } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { isIPv4, isIPv6 } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { WifiSession } from "../../model/wifi/sessions.ts";

/** What became of one Disconnect-Request: the controller's answer as FreeRADIUS relayed it, or why there is none. */
export type DisconnectAnswer = "ack" | "nak" | "no_reply" | "error";

/**
 * The session's identification, as the controller reported it in accounting (RFC 5176 §3), and the controller by
 * FreeRADIUS's name for it (Operator-NAS-Identifier, RFC 8559): FreeRADIUS relays by it and removes it.
 */
export type DisconnectTarget = Pick<
  WifiSession,
  "controller" | "acctSessionId" | "userName" | "callingStation" | "nasIpAddress" | "nasIdentifier"
>;

/** How long radclient waits for FreeRADIUS's answer, which waits for the controller's (its own retries inside). */
const answerWaitSeconds = 10;

// Values come from a controller's accounting: quoted and escaped, and dropped when they hold a control character
// (radclient reads one attribute a line, so a line break would add attributes of the sender's choosing).
const quoted = (value: string) => `"${value.replaceAll("\\", "\\\\").replaceAll('"', '\\"')}"`;
const printable = (value: string | null): value is string =>
  value !== null && [...value].every((char) => char.charCodeAt(0) >= 0x20 && char.charCodeAt(0) !== 0x7f);

/** radclient's input: one `Name = value` a line. */
export function disconnectAttributes(target: DisconnectTarget): string {
  const lines: string[] = [];
  const add = (name: string, value: string | null) => {
    if (printable(value)) lines.push(`${name} = ${quoted(value)}`);
  };
  add("User-Name", target.userName);
  add("Acct-Session-Id", target.acctSessionId);
  add("Calling-Station-Id", target.callingStation);
  add("NAS-Identifier", target.nasIdentifier);
  const address = target.nasIpAddress ?? "";
  if (isIPv4(address)) lines.push(`NAS-IP-Address = ${address}`);
  else if (isIPv6(address)) lines.push(`NAS-IPv6-Address = ${address}`);
  add("Operator-NAS-Identifier", target.controller);
  // Signed as a whole (RFC 5176 §3.5 advises it; FreeRADIUS fills in the value).
  lines.push("Message-Authenticator = 0x00");
  return `${lines.join("\n")}\n`;
}

/**
 * Sends one Disconnect-Request with FreeRADIUS's own client, radclient (Debian: freeradius-utils), to FreeRADIUS's
 * CoA listener (`server`, host:port), which relays it to the controller (deploy/freeradius/sites-available/kpi-id-coa).
 * No RADIUS is encoded here. The secret never goes on the command line (any local user could read it there): it is
 * in a file only this user can read, in a directory of its own, removed when radclient is done. (radclient cannot
 * read it from an inherited descriptor: Node's extra stdio is a socket, which /dev/fd cannot open.)
 */
export async function sendDisconnect(
  server: string,
  secret: string,
  target: DisconnectTarget,
): Promise<DisconnectAnswer> {
  const directory = await mkdtemp(join(tmpdir(), "kpi-id-radclient-"));
  try {
    const secretFile = join(directory, "secret");
    await writeFile(secretFile, `${secret}\n`, { mode: 0o600 });
    return await radclient(
      ["-S", secretFile, "-t", String(answerWaitSeconds), "-r", "1", server, "disconnect"],
      target,
    );
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}

function radclient(args: string[], target: DisconnectTarget): Promise<DisconnectAnswer> {
  return new Promise((resolve) => {
    const child = spawn("radclient", args, { stdio: ["pipe", "pipe", "pipe"] });
    let output = "";
    const collect = (chunk: Buffer) => {
      output += chunk.toString("utf8");
    };
    child.stdout.on("data", collect);
    child.stderr.on("data", collect);
    // radclient gone early (missing, or refusing its input): its exit says what became of the request.
    child.stdin.on("error", () => undefined);
    child.once("error", () => resolve("error"));
    child.once("close", () => {
      if (/Received Disconnect-ACK/.test(output)) resolve("ack");
      else if (/Disconnect-NAK/.test(output)) resolve("nak");
      else if (/No reply/i.test(output)) resolve("no_reply");
      else resolve("error");
    });
    child.stdin.end(disconnectAttributes(target));
  });
}

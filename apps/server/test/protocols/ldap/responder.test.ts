// The bind responder alone (protocols/ldap/responder.ts): whatever arrives on its socket, it answers within 2 s
// with an LDAP result code and stays up; slapd would otherwise hold the client's bind without a timeout.
import { mkdtempSync, rmSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BindResponder, startBindResponder } from "../../../src/protocols/ldap/responder.ts";
import type { SockBind } from "../../../src/protocols/ldap/sock.ts";

let dir: string;
let path: string;
let responder: BindResponder;
const seen: SockBind[] = [];

/** Sends bytes as slapd would (optionally closing its side) and reads the whole answer. */
function ask(request: Buffer | string, halfClose = true): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(path);
    let answer = "";
    socket.on("data", (chunk) => {
      answer += chunk.toString("utf8");
    });
    socket.on("end", () => resolve(answer));
    socket.on("error", reject);
    socket.write(request);
    if (halfClose) socket.end();
  });
}

const bind = (dn: string, password: string, extra = "") => {
  const cred = Buffer.from(password, "utf8");
  return Buffer.concat([
    Buffer.from(
      `BIND\nmsgid: 2\nbinddn: \npeername: IP=127.0.0.1:4000\nssf: 256\nconnid: 7\n${extra}suffix: dc=kpi,dc=ua\ndn: ${dn}\nmethod: 128\ncredlen: ${cred.length}\ncred: `,
    ),
    cred,
    Buffer.from("\n\n"),
  ]);
};

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "kpi-id-responder-"));
  path = join(dir, "bind.sock");
  responder = await startBindResponder(
    path,
    async (request) => {
      seen.push(request);
      if (request.credentials === "slow") await new Promise((resolve) => setTimeout(resolve, 5_000));
      if (request.credentials === "broken") throw new Error("the database is gone");
      return request.credentials === "good" ? 0 : 49;
    },
    () => {},
  );
});

afterAll(async () => {
  await responder.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("the bind responder", () => {
  it("passes on what slapd tells it and answers the decision", async () => {
    expect(await ask(bind("uid=olena,ou=people,dc=kpi,dc=ua", "good"))).toBe("RESULT\ncode: 0\n\n");
    expect(seen.at(-1)).toMatchObject({
      dn: "uid=olena,ou=people,dc=kpi,dc=ua",
      peer: "127.0.0.1",
      ssf: 256,
      connection: "7",
    });
  });

  it("cuts credentials by their length, so a password may hold a newline or a colon", async () => {
    expect(await ask(bind("uid=olena,ou=people,dc=kpi,dc=ua", "line\n\nbreak: x"))).toBe("RESULT\ncode: 49\n\n");
    expect(seen.at(-1)?.credentials).toBe("line\n\nbreak: x");
  });

  it("answers 52 within 2 s when the decision does not come, and 52 when it fails", async () => {
    expect(await ask(bind("uid=olena,ou=people,dc=kpi,dc=ua", "slow"))).toBe("RESULT\ncode: 52\n\n");
    expect(await ask(bind("uid=olena,ou=people,dc=kpi,dc=ua", "broken"))).toBe("RESULT\ncode: 52\n\n");
  });

  it("refuses anything that is not a simple bind, and garbage, and stays up", async () => {
    expect(await ask("SEARCH\nmsgid: 3\nbase: dc=kpi,dc=ua\n\n")).toBe("RESULT\ncode: 49\n\n");
    expect(
      await ask(bind("uid=olena,ou=people,dc=kpi,dc=ua", "good").toString().replace("method: 128", "method: 163")),
    ).toBe("RESULT\ncode: 49\n\n");
    expect(await ask("BIND\ncredlen: 99999999\ncred: x\n\n")).toBe("RESULT\ncode: 49\n\n");
    expect(await ask(Buffer.alloc(20_000, 0x41), false)).toBe("RESULT\ncode: 49\n\n");
    expect(await ask("BIND\ndn: uid=x\n")).toBe("RESULT\ncode: 49\n\n");
    expect(await ask(bind("uid=olena,ou=people,dc=kpi,dc=ua", "good"))).toBe("RESULT\ncode: 0\n\n");
  });
});

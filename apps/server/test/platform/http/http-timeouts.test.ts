import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, TEST_ORIGIN, type TestApp } from "../../support/app.ts";

describe("a slow client cannot hold a connection", () => {
  let t: TestApp;
  let port = 0;
  beforeAll(async () => {
    t = await createTestApp(
      "pglite",
      { HEADERS_TIMEOUT_SECONDS: "1", REQUEST_TIMEOUT_SECONDS: "1" },
      { protocols: [] },
    );
    await t.app.listen({ host: "127.0.0.1", port: 0 });
    const address = t.app.server.address();
    port = typeof address === "object" && address ? address.port : 0;
  });
  afterAll(() => t.close());

  it("cuts off a client that sends its headers, then dribbles the body a byte at a time", async () => {
    const declared = 2000;
    const socket = connect(port, "127.0.0.1");
    let answer = "";
    let sent = 0;
    socket.setEncoding("utf8");
    socket.on("data", (chunk: string) => {
      answer += chunk;
    });
    socket.on("error", () => {});
    socket.write(
      [
        "POST /api/auth HTTP/1.1",
        "Host: localhost",
        "Content-Type: application/json",
        `Origin: ${TEST_ORIGIN}`,
        `Content-Length: ${declared}`,
        "",
        "",
      ].join("\r\n"),
    );
    // One byte every 50 ms: the connection never falls silent, so only the whole-request limit can end it.
    const dribble = setInterval(() => {
      if (socket.destroyed || socket.writableEnded) return;
      socket.write(" ");
      sent += 1;
    }, 50);
    const closed = await new Promise<boolean>((resolve) => {
      socket.on("close", () => resolve(true));
      setTimeout(() => resolve(false), 8000).unref();
    });
    clearInterval(dribble);
    socket.destroy();
    expect(closed).toBe(true);
    expect(sent).toBeLessThan(declared);
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
  });

  it("still serves a client that sends its request promptly", async () => {
    const response = await fetch(`http://127.0.0.1:${port}/health`);
    expect(response.status).toBe(200);
  });
});

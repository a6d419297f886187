import { request as httpRequest } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningDiiaStandIn } from "../../../../../sandbox/src/diia/index.ts";
import { insertUser } from "../../../src/model/users/queries.ts";
import { aboveModelDatabases } from "../../support/databases.ts";
import { person, postSignedCallback, startTestDiia } from "../../support/diia.ts";
import { createListeningTestApp, type ListeningTestApp } from "../../support/listening.ts";

interface PlainAnswer {
  status: number;
  body: string;
  setCookies: string[];
}

/**
 * What a public integration's server sends: node:http with no cookie jar, no Origin, no Sec-Fetch-*
 * headers (as PHP's curl or Python's requests do); each call stands alone.
 */
function plain(origin: string, method: string, path: string, options: { body?: unknown; cookie?: string } = {}) {
  return new Promise<PlainAnswer>((resolve, reject) => {
    const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
    const call = httpRequest(
      `${origin}${path}`,
      {
        method,
        headers: {
          accept: "application/json",
          ...(payload ? { "content-type": "application/json" } : {}),
          ...(options.cookie ? { cookie: options.cookie } : {}),
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () =>
          resolve({
            status: response.statusCode ?? 0,
            body: Buffer.concat(chunks).toString("utf8"),
            setCookies: response.headers["set-cookie"] ?? [],
          }),
        );
      },
    );
    call.on("error", reject);
    call.end(payload);
  });
}

const json = (answer: PlainAnswer) => JSON.parse(answer.body) as Record<string, unknown>;

/** Issue 35: the exact calls of an existing integration's server-side Diia sign-in, with no cookie kept. */
describe.each(aboveModelDatabases)("an integration's cookie-less server-side Diia sign-in (%s)", (kind) => {
  let diia: RunningDiiaStandIn;
  let listening: ListeningTestApp;

  beforeAll(async () => {
    diia = await startTestDiia();
    listening = await createListeningTestApp(kind, { protocols: [], env: diia.env });
    await insertUser(listening.test.app.db, {
      username: "student",
      full_name: "Олена Коваленко",
      tax_id: "3012345670",
    });
  });
  afterAll(async () => {
    await listening?.test.close();
    await diia?.close();
  });

  async function linkFromServer() {
    const link = await plain(listening.origin, "GET", "/api/diia/app-link");
    expect(link.status).toBe(200);
    return json(link) as { requestId: string; deepLink: string; pageLink: string };
  }

  it("app-link, check-request until Finished, POST /api/auth/internal, then GET /user: all without a cookie", async () => {
    const { requestId, deepLink, pageLink } = await linkFromServer();
    // The QR code and the deep link do not reveal the id check-request takes.
    expect(deepLink).not.toContain(requestId);
    expect(pageLink).not.toContain(requestId);
    const poll = () => plain(listening.origin, "GET", `/api/diia/check-request?requestId=${requestId}`);
    expect(json(await poll())).toEqual({ status: "Processing" });
    const delivered = await postSignedCallback(listening.test.app, requestId, person(diia, "student"));
    expect(delivered.statusCode).toBe(200);
    const finished = json(await poll());
    expect(finished).toEqual({ status: "Finished", sessionId: expect.any(String) });

    const internal = await plain(listening.origin, "POST", "/api/auth/internal", {
      body: { sessionId: finished.sessionId },
    });
    expect(internal.status).toBe(200);
    const session = internal.setCookies.map((cookie) => cookie.split(";")[0]).find((pair) => pair?.includes("session"));
    expect(session).toBeDefined();
    const user = await plain(listening.origin, "GET", "/user", { cookie: session });
    expect(user.status).toBe(200);
    expect(json(user)).toMatchObject({ fullName: "Олена Коваленко", data: { AUTH_METHOD: "DIIA" } });
  });

  it("refuses the same cookie-less poll from another address: a leaked request id is worth nothing", async () => {
    const { requestId } = await linkFromServer();
    await postSignedCallback(listening.test.app, requestId, person(diia, "student"));
    const elsewhere = await listening.test.app.inject({
      url: `/api/diia/check-request?requestId=${requestId}`,
      remoteAddress: "198.51.100.23",
    });
    expect(elsewhere.statusCode).toBe(404);
    expect(elsewhere.json().code).toBe("diia.request_not_found");
    // The integration's own server still collects it.
    const own = json(await plain(listening.origin, "GET", `/api/diia/check-request?requestId=${requestId}`));
    expect(own).toEqual({ status: "Finished", sessionId: expect.any(String) });
  });

  it("never answers a browser's request without its cookie, even from the browser's own address", async () => {
    const browserLink = await listening.test.app.inject({
      url: "/api/diia/app-link",
      remoteAddress: "127.0.0.1",
      headers: { "sec-fetch-site": "same-origin" },
    });
    const { requestId } = browserLink.json();
    await postSignedCallback(listening.test.app, requestId, person(diia, "student"));
    const cookieless = await plain(listening.origin, "GET", `/api/diia/check-request?requestId=${requestId}`);
    expect(cookieless.status).toBe(404);
    expect(json(cookieless).code).toBe("diia.request_not_found");
  });
});

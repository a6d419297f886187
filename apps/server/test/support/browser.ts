import type { FastifyInstance, LightMyRequestResponse } from "fastify";
import { postJson } from "./app.ts";

/** One browser against the app: it keeps the cookies the service sets, as a real one does. */
export function testBrowser(app: FastifyInstance, address = "203.0.113.7") {
  const jar = new Map<string, string>();
  const cookie = () => [...jar].map(([name, value]) => `${name}=${value}`).join("; ");
  const keep = (response: LightMyRequestResponse) => {
    for (const set of response.cookies) {
      if (set.value) jar.set(set.name, set.value);
      else jar.delete(set.name);
    }
    return response;
  };
  return {
    jar,
    cookie,
    post: async (url: string, body: object) =>
      keep(await postJson(app, url, body, { remoteAddress: address, headers: { cookie: cookie() } })),
    get: async (url: string) => keep(await app.inject({ url, remoteAddress: address, headers: { cookie: cookie() } })),
  };
}

export type TestBrowserJar = ReturnType<typeof testBrowser>;

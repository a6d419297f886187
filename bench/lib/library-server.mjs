// oidc-provider alone in a process of its own, for the side-by-side memory rows (peer.bench.ts): the library
// the service is built on, with its in-memory adapter and nothing else, under the service's production flags.
// Plain JavaScript, so that Node loads no TypeScript stripper into the process being measured.
import { createServer } from "node:http";
import Provider from "oidc-provider";
import { collectWhenQuiet } from "./quiet-collect.mjs";

const port = Number(process.env.PORT);
const provider = new Provider("http://127.0.0.1/oidc", {
  clients: [
    {
      client_id: "bench-client",
      client_secret: "bench-secret-for-the-library-alone",
      redirect_uris: ["https://rp.example.edu/cb"],
    },
  ],
  features: { devInteractions: { enabled: false } },
});
const callback = provider.callback();
createServer((request, response) => {
  collectWhenQuiet();
  Object.assign(request, { originalUrl: request.url });
  request.url = (request.url ?? "/").slice("/oidc".length) || "/";
  void callback(request, response);
}).listen(port, "127.0.0.1");

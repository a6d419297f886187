// The service started as production starts it (startServer with the environment's configuration), in a child
// process that counts the npm packages it has loaded: startup-modules.test.ts asks over the IPC channel after
// start-up and after each request it sends. Node's module hooks see every import and require of the process.
import { registerHooks } from "node:module";

const loaded = new Set<string>();
registerHooks({
  resolve(specifier, context, nextResolve) {
    const result = nextResolve(specifier, context);
    // The package a file belongs to: the last node_modules segment of its path (scoped names keep their scope).
    const names = [...result.url.matchAll(/\/node_modules\/((?:@[^/]+\/)?[^/]+)\//g)];
    const name = names.at(-1)?.[1];
    if (name) loaded.add(name);
    return result;
  },
});

const { loadConfig } = await import("../../src/platform/config/index.ts");
const { startServer } = await import("../../src/server.ts");
const { createScimToken } = await import("../../src/model/scim/tokens.ts");

const server = await startServer(loadConfig(process.env));
const { token } = await createScimToken(server.app.db, "hr");
process.on("message", (message) => {
  if (message === "stop") void server.close().finally(() => process.exit(0));
  else process.send?.({ loaded: [...loaded].sort() });
});
// The test's worker is gone (it crashed or was stopped): nothing would ever stop this process otherwise.
process.on("disconnect", () => process.exit(1));
process.send?.({ url: server.url, scimToken: token, loaded: [...loaded].sort() });

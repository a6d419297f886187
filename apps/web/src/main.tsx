import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./app/app.tsx";
import { bootData } from "./lib/boot-data.ts";
import { userQueryOptions } from "./lib/current-user.ts";
import { initI18n } from "./lib/i18n.ts";
import { createQueryClient } from "./lib/query-client.ts";
import "./index.css";

declare global {
  var __zod_globalConfig: { jitless?: boolean } | undefined;
}

// zod (loaded later, with the screens that check answers) probes `new Function` once to decide whether to
// compile its parsers; under the page's CSP the probe is a reported violation in the console. Its global
// configuration, set before zod loads (what z.config({ jitless: true }) writes), skips the probe.
globalThis.__zod_globalConfig = { ...globalThis.__zod_globalConfig, jitless: true };

void initI18n();

// Who is signed in is known before React renders: the gates and the header read it from the cache
// instead of starting the call themselves. The page names the person when its cookie named a live
// session, and says nobody is when it came without one (no call, so an anonymous visitor meets no 401);
// only when it could not tell is /user asked, at once.
const queryClient = createQueryClient();
const { signedOut, user } = bootData();
if (user) queryClient.setQueryData(userQueryOptions.queryKey, user);
else if (signedOut) queryClient.setQueryData(userQueryOptions.queryKey, null);
else void queryClient.prefetchQuery(userQueryOptions);

const root = document.getElementById("root");
if (root)
  createRoot(root).render(
    <StrictMode>
      <App queryClient={queryClient} />
    </StrictMode>,
  );

import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./app/app.tsx";
import { userQueryOptions } from "./features/auth/api/get-user.ts";
import { bootData } from "./lib/boot-data.ts";
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

// Who is signed in is asked before React renders (the language is known by now): the gates and the
// header read the answer from the cache instead of starting the call themselves. A page that came
// without a session cookie says nobody is: no call, so an anonymous visitor meets no 401.
const queryClient = createQueryClient();
if (bootData().signedOut) queryClient.setQueryData(userQueryOptions.queryKey, null);
else void queryClient.prefetchQuery(userQueryOptions);

const root = document.getElementById("root");
if (root)
  createRoot(root).render(
    <StrictMode>
      <App queryClient={queryClient} />
    </StrictMode>,
  );

import { useEffect, useState } from "react";

const scriptId = "kpi-id-signin-script";

/**
 * Loads the service's own /kpi-id-signin.js once, exactly as integrators do,
 * and reports when window.KPIID is ready: the preview runs the real script.
 */
export function useSigninScript(): boolean {
  const [ready, setReady] = useState(() => Boolean(window.KPIID));
  useEffect(() => {
    if (window.KPIID) {
      setReady(true);
      return;
    }
    let script = document.getElementById(scriptId) as HTMLScriptElement | null;
    if (!script) {
      script = document.createElement("script");
      script.id = scriptId;
      script.src = "/kpi-id-signin.js";
      script.async = true;
      document.head.append(script);
    }
    const onLoad = () => setReady(Boolean(window.KPIID));
    script.addEventListener("load", onLoad);
    return () => script?.removeEventListener("load", onLoad);
  }, []);
  return ready;
}

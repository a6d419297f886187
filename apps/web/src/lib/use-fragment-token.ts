import { useEffect, useState } from "react";
import { useLocation, useNavigate } from "react-router";

/** The token a mailed link carries in its fragment (`#token=…`): it reaches no server log and no Referer. */
function tokenOf(hash: string): string {
  return new URLSearchParams(hash.replace(/^#/, "")).get("token") ?? "";
}

/**
 * The token of the link this page was opened from (a reset link, a guest's invitation). A newer link opened in the
 * same tab replaces it; it then leaves the address bar, the history and any screenshot of it.
 */
export function useFragmentToken(): string {
  const { hash, pathname } = useLocation();
  const navigate = useNavigate();
  const [token, setToken] = useState(() => tokenOf(hash));
  useEffect(() => {
    const fromLink = tokenOf(hash);
    if (fromLink === "") return;
    setToken(fromLink);
    navigate({ pathname, hash: "" }, { replace: true });
  }, [hash, pathname, navigate]);
  return token;
}

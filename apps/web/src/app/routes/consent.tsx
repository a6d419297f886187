import { useSearchParams } from "react-router";
import { ConsentScreen } from "@/features/consent/components/consent-screen.tsx";

/** /{lang}/consent?uid=… — where the server sends an OpenID Connect sign-in that needs the person's consent. */
export function ConsentRoute() {
  const [searchParams] = useSearchParams();
  return <ConsentScreen uid={searchParams.get("uid") ?? ""} />;
}

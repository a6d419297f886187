import { useSearchParams } from "react-router";
import { ConsentScreen } from "@/features/consent/components/consent-screen.tsx";

/**
 * /{lang}/consent?uid=… (an OpenID Connect sign-in) or ?saml=… (a SAML service provider's
 * request): where the server sends a sign-in that needs the person's consent.
 */
export function ConsentRoute() {
  const [searchParams] = useSearchParams();
  const saml = searchParams.get("saml");
  return (
    <ConsentScreen
      request={saml !== null ? { kind: "saml", id: saml } : { kind: "oidc", uid: searchParams.get("uid") ?? "" }}
    />
  );
}

import { ConsentPage } from "@/features/consent/components/consent-page.tsx";

export function ConsentRoute() {
  return <ConsentPage />;
}

import { useParams } from "react-router";
import { BackButton } from "@/components/content-page.tsx";
import { ApplicationDetailScreen } from "@/features/developers/components/application-detail.tsx";
import { DevelopersScreen } from "@/features/developers/components/developers-screen.tsx";
import { pageContainer } from "@/lib/layout.ts";
import { cn } from "@/lib/utils.ts";
import { ProtectedGate } from "../gates/protected-gate.tsx";

export function DevelopersRoute() {
  return (
    <ProtectedGate>
      <div className={cn(pageContainer, "flex flex-col gap-2 py-8 sm:py-12")}>
        <BackButton />
        <DevelopersScreen />
      </div>
    </ProtectedGate>
  );
}

export function DeveloperApplicationRoute() {
  const { id = "" } = useParams();
  return (
    <ProtectedGate>
      <div className={cn(pageContainer, "flex flex-col gap-2 py-8 sm:py-12")}>
        <ApplicationDetailScreen id={id} />
      </div>
    </ProtectedGate>
  );
}

import { BackButton } from "@/components/content-page.tsx";
import { ButtonWizard } from "@/features/button-wizard/components/button-wizard.tsx";
import { pageContainer } from "@/lib/layout.ts";
import { cn } from "@/lib/utils.ts";

/** /{lang}/button-wizard: wider than a content page, for the form beside the snippets. */
export function ButtonWizardRoute() {
  return (
    <div className={cn(pageContainer, "flex flex-col gap-4 py-8 sm:py-12")}>
      <BackButton />
      <ButtonWizard />
    </div>
  );
}

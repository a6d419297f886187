import { ButtonWizard } from "@/features/button-wizard/components/button-wizard.tsx";
import { BackButton } from "../layouts/page.tsx";

/** /{lang}/button-wizard: wider than a content page, for the form beside the snippets. */
export function ButtonWizardRoute() {
  return (
    <div className="mx-auto flex w-full max-w-6xl flex-col gap-4 px-4 py-8 sm:px-6 sm:py-12">
      <BackButton />
      <ButtonWizard />
    </div>
  );
}

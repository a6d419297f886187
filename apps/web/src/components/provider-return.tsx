import { Spinner } from "@/components/ui/spinner.tsx";

/**
 * The page a sign-in provider (Google, BankID) returns to, while the browser hands its answer to the server.
 * What it does is the page's one heading (screen readers find the page by it), and the spinner's status says it
 * too: the heading stays outside the live region, whose words go in after it enters the page (LiveStatus says why).
 */
export function ProviderReturn({ status }: { status: string }) {
  return (
    <div className="flex flex-1 flex-col items-center justify-center gap-4 px-4 py-16 text-center">
      <Spinner size="large" className="text-primary" label={status} />
      <h1 className="text-base font-normal text-muted-foreground">{status}</h1>
    </div>
  );
}

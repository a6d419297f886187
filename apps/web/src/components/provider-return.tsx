import { Spinner } from "@/components/ui/spinner.tsx";

/** The page a sign-in provider (Google, BankID) returns to, while the browser hands its answer to the server. */
export function ProviderReturn({ status }: { status: string }) {
  return (
    <div className="flex flex-1 flex-col items-center justify-center gap-4 px-4 py-16 text-center">
      <Spinner size="large" className="text-primary" />
      <p role="status" className="text-muted-foreground">
        {status}
      </p>
    </div>
  );
}

import { useState } from "react";
import { ReauthDialog } from "./reauth-dialog.tsx";

/** Called when the server wants a recent sign-in: `retry` repeats the change once the person proved it again. */
export type AskAgain = (retry: () => void) => void;

/** The account page's "prove it is you" prompt: one dialog for every sensitive change. */
export function useReauth() {
  const [retry, setRetry] = useState<(() => void) | null>(null);
  const askAgain: AskAgain = (next) => setRetry(() => next);
  const dialog = (
    <ReauthDialog
      open={retry !== null}
      onClose={() => setRetry(null)}
      onConfirmed={() => {
        retry?.();
        setRetry(null);
      }}
    />
  );
  return { askAgain, dialog };
}

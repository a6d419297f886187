import { lazy, type ReactNode, Suspense, useRef, useState } from "react";
import { useLocation, useNavigate } from "react-router";

// The dialog (Radix, about 10 kB gzipped) is not part of the apps screen's first load: it is fetched when
// the person points at, touches or focuses the link, so it is usually there by the time they click. Not on
// idle: evaluating Radix then would be a long task inside the page's measured start.
const loadDialog = () => import("./my-data-dialog.tsx");
const MyDataDialog = lazy(loadDialog);

/**
 * Open is a history entry of its own (location state), so the browser's Back closes the dialog
 * instead of leaving the page; closing it any other way steps back over that entry.
 */
function useDialogHistoryEntry(): [boolean, (open: boolean) => void] {
  const location = useLocation();
  const navigate = useNavigate();
  const open = (location.state as { myData?: boolean } | null)?.myData === true;
  const setOpen = (next: boolean) => {
    if (next && !open) navigate({ pathname: location.pathname, search: location.search }, { state: { myData: true } });
    if (!next && open) navigate(-1);
  };
  return [open, setOpen];
}

interface MyDataLinkProps {
  data: Record<string, string>;
  /** The link text: the translation hands it in as children. */
  children?: ReactNode;
}

/** The "My data" link in the apps screen's description, and the dialog it opens. */
export function MyDataLink({ data, children }: MyDataLinkProps) {
  const [open, setOpen] = useDialogHistoryEntry();
  const trigger = useRef<HTMLButtonElement>(null);
  // Once loaded the dialog stays mounted, so closing runs Radix's own close (focus back to the link).
  const [loaded, setLoaded] = useState(open);
  if (open && !loaded) setLoaded(true);
  return (
    <>
      <button
        ref={trigger}
        type="button"
        aria-haspopup="dialog"
        aria-expanded={open}
        onClick={() => setOpen(true)}
        onPointerEnter={() => void loadDialog()}
        onFocus={() => void loadDialog()}
        className="rounded-sm font-medium text-primary underline underline-offset-4 hover:no-underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
      >
        {children}
      </button>
      {loaded ? (
        <Suspense fallback={null}>
          <MyDataDialog data={data} open={open} onOpenChange={setOpen} returnFocusTo={trigger} />
        </Suspense>
      ) : null}
    </>
  );
}

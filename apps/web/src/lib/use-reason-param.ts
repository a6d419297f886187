import { useEffect, useState } from "react";
import { useSearchParams } from "react-router";

function readReason<Reason extends string>(
  value: string | null,
  isReason: (value: unknown) => value is Reason,
  fallback: Reason,
): Reason | null {
  return value === null || isReason(value) ? value : fallback;
}

/**
 * Reads a sign-in's failure reason from the URL once (`google_auth_error`, `bankid_auth_error`; anything
 * unknown counts as `fallback`), then removes it from the URL so a reload does not show it again.
 * Returns the reason shown and a way to clear it (the next attempt does). `isReason` must be a function
 * defined once (the contracts' guards are), not one made on each render.
 */
export function useReasonParam<Reason extends string>(
  param: string,
  isReason: (value: unknown) => value is Reason,
  fallback: Reason,
): [Reason | null, () => void] {
  const [searchParams, setSearchParams] = useSearchParams();
  const present = searchParams.get(param);
  const [shown, setShown] = useState<Reason | null>(() => readReason(present, isReason, fallback));
  useEffect(() => {
    if (present === null) return;
    setShown(readReason(present, isReason, fallback));
    setSearchParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.delete(param);
        return next;
      },
      { replace: true },
    );
  }, [present, param, isReason, fallback, setSearchParams]);
  return [shown, () => setShown(null)];
}

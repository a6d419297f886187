import type { DiiaFailureReason } from "@kpi-id/contracts";
import { useMutation } from "@tanstack/react-query";
import { useCallback, useEffect, useRef, useState } from "react";
import { exchangeSession } from "@/features/auth/index.ts";
import { CHECK_REQUEST_INTERVAL_MS, useCheckRequest } from "./check-request.ts";
import { QR_REFRESH_INTERVAL_MS, useAppLink } from "./get-app-link.ts";

/** The spec's progress bar step; only the bar re-renders this often (diia-refresh-progress.tsx). */
export const PROGRESS_TICK_MS = 100;
/** After this many codes nobody scanned, polling stops until the person asks for a new code. */
export const MAX_UNSCANNED_CODES = 3;

export interface DiiaTiming {
  refreshIntervalMs: number;
  pollIntervalMs: number;
}

export const diiaTiming: DiiaTiming = {
  refreshIntervalMs: QR_REFRESH_INTERVAL_MS,
  pollIntervalMs: CHECK_REQUEST_INTERVAL_MS,
};

interface DiiaSignInOptions {
  /** `next`: where the server says the browser goes now. */
  onSignedIn: (next: string) => Promise<void> | void;
  /**
   * A failed call passes its error (its code picks the message); a failed or lost scan passes nothing but,
   * when the server says why a scan was refused (a person the university does not know, a certificate it
   * cannot trust), that reason.
   */
  onFailure: (error?: unknown, reason?: DiiaFailureReason) => void;
  /** The spec's intervals; tests shorten them instead of faking clocks. */
  timing?: DiiaTiming;
  /**
   * What the grant of a finished scan becomes: a session (sign-in, the default) or, when the person
   * forgot their password, a reset token. Its answer goes to `onSignedIn`.
   */
  exchange?: (sessionId: string) => Promise<string>;
}

/**
 * The Diia sign-in loop: fetch a deep link, poll its status every 3 s,
 * replace it every 120 s, exchange the sessionId once Diia reports the scan.
 */
export function useDiiaSignIn({
  onSignedIn,
  onFailure,
  timing = diiaTiming,
  exchange: redeem = exchangeSession,
}: DiiaSignInOptions) {
  const [stopped, setStopped] = useState(false);
  const codesShown = useRef(0);
  const exchange = useMutation({
    mutationFn: async (sessionId: string) => {
      await onSignedIn(await redeem(sessionId));
    },
    onError: (error) => onFailure(error),
  });
  const busy = exchange.isPending || exchange.isSuccess;
  const active = !stopped && !busy;
  const link = useAppLink(!stopped);
  const requestId = link.data?.requestId;
  const check = useCheckRequest(link.isFetching ? undefined : requestId, active, timing.pollIntervalMs);

  useEffect(() => {
    if (link.dataUpdatedAt) codesShown.current += 1;
  }, [link.dataUpdatedAt]);

  const refresh = useCallback(() => {
    if (codesShown.current >= MAX_UNSCANNED_CODES) setStopped(true);
    else void link.refetch();
  }, [link]);

  // A timer for when the code is due, not a check on every tick: the screen need not re-render to find out.
  useEffect(() => {
    if (!active || !link.isSuccess || link.isFetching || !link.dataUpdatedAt) return;
    const timer = window.setTimeout(refresh, Math.max(0, link.dataUpdatedAt + timing.refreshIntervalMs - Date.now()));
    return () => window.clearTimeout(timer);
  }, [active, link.dataUpdatedAt, link.isSuccess, link.isFetching, refresh, timing.refreshIntervalMs]);

  const status = check.data?.status;
  const sessionId = check.data?.sessionId;
  const failure = check.data?.failure;
  // biome-ignore lint/correctness/useExhaustiveDependencies: keyed on the answer only; re-running on the identity of link or exchange would repeat the exchange
  useEffect(() => {
    if (!active) return;
    if (status === "Finished" && sessionId) exchange.mutate(sessionId);
    else if (status === "Finished" || status === "Failed") {
      onFailure(undefined, failure);
      void link.refetch();
    } else if (status === "Expired") {
      // A code is replaced before its request expires; reaching Expired means the sign-in was lost
      // (a late scan, a sleeping tab), which the person is told about like any other failure.
      onFailure();
      refresh();
    }
  }, [status, sessionId]);

  useEffect(() => {
    if (link.isError) onFailure(link.error);
    else if (check.isError) onFailure(check.error);
  }, [link.isError, link.error, check.isError, check.error, onFailure]);

  const restart = () => {
    codesShown.current = 0;
    setStopped(false);
    exchange.reset();
    void link.refetch();
  };

  return {
    link,
    /** When the code on screen was fetched (the progress bar and "updated" count from it). */
    shownAt: link.dataUpdatedAt,
    stopped: stopped || link.isError,
    /** Why it stopped: no code could be fetched (not "nobody scanned"), so the screen says that instead. */
    codeUnavailable: link.isError,
    exchanging: busy,
    restart,
  };
}

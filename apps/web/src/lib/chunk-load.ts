import { browser } from "./browser.ts";

const RELOADED_AT_KEY = "kpi-id:chunk-reload-at";
/** A second failure this soon after the reload is not a stale tab: show the message instead. */
const RELOAD_AGAIN_AFTER_MS = 60_000;

const CHUNK_FAILURE =
  /dynamically imported module|Importing a module script failed|error loading dynamically|Unable to preload CSS/i;

/** The browser could not load one of the app's own files, usually because a deploy replaced them. */
export function isChunkLoadError(error: unknown): boolean {
  return error instanceof Error && CHUNK_FAILURE.test(error.message);
}

function reloadedRecently(): boolean {
  try {
    return Date.now() - Number(window.sessionStorage.getItem(RELOADED_AT_KEY) ?? 0) < RELOAD_AGAIN_AFTER_MS;
  } catch {
    return true;
  }
}

/** Reloads the page once to pick up the new files; false when it already did (the caller shows a message). */
export function reloadOnceForNewVersion(): boolean {
  if (reloadedRecently()) return false;
  try {
    window.sessionStorage.setItem(RELOADED_AT_KEY, String(Date.now()));
  } catch {
    return false;
  }
  browser.reload();
  return true;
}

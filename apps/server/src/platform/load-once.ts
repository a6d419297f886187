/**
 * A module loaded on first use and kept: `const loadX = loadOnce(() => import("x"))`. Heavy libraries that
 * only some requests need (SAML, DSTU crypto, passkeys, SCIM, mail) are not read at start-up, so an instance
 * that never uses them does not hold them (issue 41's idle RSS). A failed load is not kept: the next use tries again
 * (which helps with a file missing for a moment; a module whose own code threw stays failed in Node's module map).
 */
export function loadOnce<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () => {
    loading ??= load().catch((error: unknown) => {
      loading = undefined;
      throw error;
    });
    return loading;
  };
}

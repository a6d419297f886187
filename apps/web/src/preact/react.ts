// The web app renders with Preact through its React compatibility layer (docs/performance.md says why).
// "react" resolves here: preact/compat plus the React 19 hooks it lacks that our libraries import.
// @ts-expect-error TS2498: preact/compat's type declarations use `export =`; the module itself is an ES module.
export * from "preact/compat";
export { default } from "preact/compat";

/**
 * react-router's RouterProvider calls useOptimistic and uses its setter only when `useTransitions` is
 * set, which this app never does: the state as it is, and a setter with nothing to do.
 */
export function useOptimistic<State>(state: State): [State, (update: unknown) => void] {
  return [state, () => undefined];
}

// The collection the service makes after a busy spell (its memoryReducingCollection,
// apps/server/src/platform/http/quiet-collection.ts; the production flags expose gc), for the bench's own server
// processes (library-server.mjs, stack-server.mjs), a second after their last request: the figure read after it is
// their live memory, not garbage their requests left, collected as the service's is (the same options: keep them in
// step with memoryReducingCollection).
let collection;
const collect = () => globalThis.gc?.({ type: "major", execution: "sync", flavor: "last-resort" });

/** Called at each request: the collection runs once a second has passed without another. */
export function collectWhenQuiet() {
  clearTimeout(collection);
  collection = setTimeout(collect, 1000);
}

// Runs only the people-search bench's unit-admin row (issue 79), without the rest of that bench.
import { runUnitScopedOnly } from "./people-search.bench.ts";

const row = await runUnitScopedOnly();
console.log(JSON.stringify(row, null, 2));

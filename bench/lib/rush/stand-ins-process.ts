// A child process for the rush (bench/lib/rush/stand-ins.ts): the sandbox's stand-ins for Google, Diia and BankID
// NBU, pointed at KPI ID's origin (argv[2]). Prints one JSON line (StandInsReady) and serves until its parent closes
// stdin. Apart from the generator's process so their work (Diia's and BankID's DSTU signatures in JavaScript, the
// OpenID provider) never stalls the event loop that times the rush's requests; pinned with the generator.
import { demoPeople } from "@kpi-id/server/seed";
import { standInBanks } from "../../../sandbox/src/bankid/banks.ts";
import { startBankIdStandIn } from "../../../sandbox/src/bankid/index.ts";
import { bankIdPersonas } from "../../../sandbox/src/bankid/personas.ts";
import { startDiiaStandIn } from "../../../sandbox/src/diia/index.ts";
import { googleAccounts } from "../../../sandbox/src/google/accounts.ts";
import { startGoogleStandIn } from "../../../sandbox/src/google/index.ts";
import type { StandInsReady } from "./stand-ins.ts";

const productUrl = process.argv[2] ?? "";
const google = await startGoogleStandIn({ productUrl, port: 0 });
const diia = await startDiiaStandIn({ productUrl, port: 0 });
const bankId = await startBankIdStandIn({ productUrl, port: 0 });
const campusEmails = new Set(demoPeople.map((person) => person.email));
const usernames = new Set(demoPeople.map((person) => person.username));
const ready: StandInsReady = {
  env: { ...google.env, ...diia.env, ...bankId.env },
  google: {
    origin: google.issuer,
    // The campus people's Workspace accounts (not the one whose address Google has not verified).
    accounts: googleAccounts
      .filter((each) => campusEmails.has(each.email) && each.email_verified && each.hd !== undefined)
      .map((each) => each.sub),
  },
  diia: { people: diia.people.filter((each) => usernames.has(each.id)).map((each) => each.id) },
  bankId: {
    clientId: bankId.clientId,
    banks: standInBanks.filter((bank) => bank.workable).map((bank) => bank.id),
    // Those found by tax id (the rush's people have no identity documents on file; "n/a" is NBU's no tax id).
    personas: bankIdPersonas
      .filter((persona) => persona.expect.outcome === "signed_in" && /^\d{10}$/.test(String(persona.data?.inn)))
      .map((persona) => persona.id),
  },
};
process.stdout.write(`${JSON.stringify(ready)}\n`);

process.stdin.resume();
process.stdin.on("end", async () => {
  await Promise.all([google.close(), diia.close(), bankId.close()]);
  process.exit(0);
});

import { describe, expect, it } from "vitest";
import { checkedTaxId } from "../../../src/sign-in/bankid/tax-id.ts";

// Check digits worked by hand: 3·−1 + 0·5 + 1·7 + 2·9 + 3·4 + 4·6 + 5·10 + 6·5 + 7·7 = 187 = 17·11, so 0;
// 0·−1 + 1·5 + 2·7 + 3·9 + 4·4 + 5·6 + 6·10 + 8·5 + 7·7 = 241 = 21·11 + 10, a 10 counting as 0.
describe("tax id (РНОКПП) from a bank", () => {
  it("accepts ten digits with the right check digit, trimmed", () => {
    expect(checkedTaxId("3012345670")).toBe("3012345670");
    expect(checkedTaxId(" 0123456870 ")).toBe("0123456870");
  });

  it("refuses a wrong check digit, n/a, other lengths and non-strings", () => {
    for (const value of [
      "3012345678",
      "0123456871",
      "n/a",
      "",
      "301234567",
      "30123456700",
      "301234567O",
      3012345670,
      null,
    ])
      expect(checkedTaxId(value)).toBeUndefined();
  });
});

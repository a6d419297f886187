// The tax id (РНОКПП) a bank reports, trusted for matching only when it is
// ten digits whose last is the check digit: weights −1, 5, 7, 9, 4, 6, 10, 5, 7
// over the first nine, sum mod 11, a 10 counting as 0. Banks send "n/a" for
// people without one (refusal on religious grounds), which is no tax id.

const weights = [-1, 5, 7, 9, 4, 6, 10, 5, 7];

export function checkedTaxId(value: unknown): string | undefined {
  if (typeof value !== "string") return undefined;
  const taxId = value.trim();
  if (!/^\d{10}$/.test(taxId)) return undefined;
  const sum = weights.reduce((total, weight, index) => total + weight * Number(taxId[index]), 0);
  return (sum % 11) % 10 === Number(taxId[9]) ? taxId : undefined;
}

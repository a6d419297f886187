export interface NameParts {
  given_name?: string;
  family_name?: string;
}

/**
 * Full names are stored as one string. Two words are read as "Ім'я Прізвище"
 * (how the campus directory and the demo data write them); three or more as
 * the official "Прізвище Ім'я По батькові" (how Diia certificates give them),
 * so the patronymic is never mistaken for a family name. One word is a given name.
 */
export function splitFullName(fullName: string): NameParts {
  const words = fullName.trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return {};
  if (words.length === 1) return { given_name: words[0] };
  if (words.length === 2) return { given_name: words[0], family_name: words[1] };
  return { family_name: words[0], given_name: words[1] };
}

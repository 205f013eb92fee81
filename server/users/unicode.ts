/**
 * Unicode hygiene for e-mail addresses in admin lists (stored names follow the text rule of
 * server/text.ts): look-alike addresses ("pаypal" with a Cyrillic а) are flagged for
 * administrators rather than refused, since a genuine address may use any script.
 */

/** Scripts whose letters are commonly used to imitate Latin ones. */
const SCRIPTS: ReadonlyArray<[string, RegExp]> = [
  ['Latin', /\p{Script=Latin}/u],
  ['Cyrillic', /\p{Script=Cyrillic}/u],
  ['Greek', /\p{Script=Greek}/u],
  ['Armenian', /\p{Script=Armenian}/u],
  ['Cherokee', /\p{Script=Cherokee}/u],
];

/** Letters of other scripts that look like Latin letters in common fonts. */
const LATIN_LOOKALIKES = new Set(
  'аеорсухіјѕԁһӏԛԝвмнткпгАВЕКМНОРСТУХІЈЅԌԚԜΑΒΕΖΗΙΚΜΝΟΡΤΥΧαοικνρτυχϲϳօսոհ',
);

function scriptOf(ch: string): string {
  for (const [name, re] of SCRIPTS) if (re.test(ch)) return name;
  return /\p{L}/u.test(ch) ? 'Other' : '';
}

/**
 * True for an address an administrator may mistake for another: one label (the local part or a
 * domain label) mixing scripts, a label in another script made only of Latin look-alikes beside
 * Latin labels ("аррӏе.com"), or invisible format characters (zero-width joiners and the like).
 */
export function isLookalikeEmail(email: string): boolean {
  if (/\p{Cf}/u.test(email)) return true;
  const labels = email.toLowerCase().split(/[@.]/u);
  const scriptsOf = (label: string): Set<string> =>
    new Set([...label].map(scriptOf).filter((s) => s !== ''));
  const all = new Set<string>();
  for (const label of labels) {
    const scripts = scriptsOf(label);
    if (scripts.size > 1) return true;
    for (const s of scripts) all.add(s);
  }
  if (!all.has('Latin') || all.size === 1) return false;
  return labels.some((label) => {
    const letters = [...label].filter((ch) => scriptOf(ch) !== '' && scriptOf(ch) !== 'Latin');
    return letters.length > 0 && letters.every((ch) => LATIN_LOOKALIKES.has(ch));
  });
}

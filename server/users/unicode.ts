/**
 * Unicode hygiene for what one user shows another (names, e-mail addresses in admin lists).
 * Bidi controls reorder the text around them ("Bob\u202Enimda" reads "Bobadmin"), so they are
 * taken out of stored names; look-alike addresses ("pаypal" with a Cyrillic а) are flagged for
 * administrators rather than refused, since a genuine address may use any script.
 */

/** U+202A-202E (embeddings, overrides), U+2066-2069 (isolates), U+200E/200F, U+061C (marks). */
const BIDI_CONTROLS = /[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]/gu;

export function stripBidiControls(text: string): string {
  return text.replace(BIDI_CONTROLS, '');
}

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

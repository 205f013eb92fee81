/**
 * The one text rule for what the product stores from people and shows to others: user names,
 * hive location names, upload file names and descriptions. Such text reaches other screens
 * (an administrator's search, the users list, CSVs), where invisible characters deceive:
 * U+202E shows `report\u202Egpj.exe` as "reportexe.jpg", a zero-width space makes two
 * locations look the same, a line break splits a CSV row or a log line.
 *
 * - bidi controls (U+202A-202E, U+2066-2069, U+200E/200F, U+061C): removed;
 * - zero-width characters (U+200B-200D, U+2060, U+FEFF): removed;
 * - control characters (C0 including tab, CR and LF, DEL, C1) and the line and paragraph
 *   separators U+2028/2029: a run of them, with the spaces around it, becomes one space, so
 *   "two\r\nlines" reads "two lines";
 * - a lone surrogate (half of a UTF-16 pair, which JSON can carry): U+FFFD;
 * - then the text is trimmed. A caller refuses what is left empty with its field's 400.
 */

const BIDI_CONTROLS = /[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]/gu;
const ZERO_WIDTH = /[\u200B-\u200D\u2060\uFEFF]/gu;
const CONTROL_RUN = /[\s\p{Cc}]*[\p{Cc}\u2028\u2029][\s\p{Cc}]*/gu;
// Without the u flag a regular expression sees the halves of a pair, so the lone ones can match.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

export function cleanText(raw: string): string {
  return raw
    .replace(LONE_SURROGATE, '\uFFFD')
    .replace(BIDI_CONTROLS, '')
    .replace(ZERO_WIDTH, '')
    .replace(CONTROL_RUN, ' ')
    .trim();
}

/** The first `max` UTF-16 units of `text`, never half of a surrogate pair. */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max);
  return /[\uD800-\uDBFF]$/.test(cut) ? cut.slice(0, -1) : cut;
}

/** Words of tool search: names split at `_ . -` and camelCase, lower-cased, lightly stemmed, common words dropped. */

// Words that tell tools apart poorly. Verbs such as "get", "list" or "create" stay: tool names are made of them.
const STOP_WORDS: ReadonlySet<string> = new Set(
  "a an and are as at be by can do does for from has have i if in into is it its me my of on or our so than that the their them then there these this those to was we what when which will with you your".split(
    " ",
  ),
);

/** Folds plural forms onto their singular, the same way for documents and queries ("invoices" finds "invoice"). */
export function stem(word: string): string {
  const n = word.length;
  // Character tests, not regular expressions: an index build stems every word of every tool.
  if (n <= 3 || word.charCodeAt(n - 1) !== 115 /* s */) return word;
  const before = word.charCodeAt(n - 2);
  if (n > 4 && before === 101 /* e */ && word.charCodeAt(n - 3) === 105 /* i */) return `${word.slice(0, -3)}y`; // companies
  if (n > 4 && before === 101 /* e */ && word.endsWith("sses")) return word.slice(0, -2); // addresses
  if (before === 115 /* s */ || before === 117 /* u */ || before === 105 /* i */) return word; // address, status, analysis
  return word.slice(0, -1);
}

const NON_ASCII = /[\u0080-\uffff]/;

function isUpper(c: number): boolean {
  return c >= 65 && c <= 90;
}

function isLowerOrDigit(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 48 && c <= 57);
}

/**
 * The search terms of a text: split at every character that is not a letter or digit, and
 * between camelCase words (`getHTTPResponse` → get, http, response); lower-cased and stemmed.
 */
export function tokenize(text: string, keepStopWords = false): string[] {
  const terms: string[] = [];
  const push = (word: string): void => {
    if (keepStopWords || !STOP_WORDS.has(word)) terms.push(stem(word));
  };
  if (NON_ASCII.test(text)) {
    const spaced = text.replace(/([\p{Ll}\p{N}])(\p{Lu})/gu, "$1 $2").replace(/(\p{Lu}+)(\p{Lu}\p{Ll})/gu, "$1 $2");
    for (const word of spaced.toLowerCase().split(/[^\p{L}\p{N}]+/u)) if (word !== "") push(word);
    return terms;
  }
  // ASCII, the usual case: one pass, no regular expressions (an index build tokenizes every tool).
  // Case is read from the text, words are cut from its lower-case copy (ASCII keeps the length).
  const lower = text.toLowerCase();
  let start = -1;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const upper = isUpper(c);
    if (!upper && !isLowerOrDigit(c)) {
      if (start >= 0) push(lower.slice(start, i));
      start = -1;
    } else if (start < 0) {
      start = i;
    } else if (upper && isLowerOrDigit(text.charCodeAt(i - 1))) {
      push(lower.slice(start, i)); // fooBar, v2Api
      start = i;
    } else if (!upper && c >= 97 && i - 1 > start && isUpper(text.charCodeAt(i - 1)) && isUpper(text.charCodeAt(i - 2))) {
      push(lower.slice(start, i - 1)); // HTTPResponse: HTTP, Response
      start = i - 1;
    }
  }
  if (start >= 0) push(lower.slice(start));
  return terms;
}

/** A name as search compares it whole: lower case, letters and digits only (`Invoice_Total` → `invoicetotal`). */
export function squash(text: string): string {
  return text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, "");
}

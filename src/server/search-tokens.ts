/** Words of tool search: names split at `_ . -` and camelCase, lower-cased, lightly stemmed, common words dropped. */

// Words that tell tools apart poorly. Verbs such as "get", "list" or "create" stay: tool names are made of them.
const STOP_WORDS: ReadonlySet<string> = new Set(
  "a an and are as at be by can do does for from has have i if in into is it its me my of on or our so than that the their them then there these this those to was we what when which will with you your".split(
    " ",
  ),
);

/** Folds plural forms onto their singular, the same way for documents and queries ("invoices" finds "invoice"). */
export function stem(word: string): string {
  if (word.length > 4 && word.endsWith("ies")) return `${word.slice(0, -3)}y`;
  if (word.length > 4 && word.endsWith("sses")) return word.slice(0, -2);
  if (word.length > 3 && word.endsWith("s") && !/(ss|us|is)$/.test(word)) return word.slice(0, -1);
  return word;
}

/**
 * The search terms of a text: split at every character that is not a letter or digit, and
 * between camelCase words (`getHTTPResponse` → get, http, response); lower-cased and stemmed.
 */
export function tokenize(text: string, keepStopWords = false): string[] {
  const spaced = text.replace(/([\p{Ll}\p{N}])(\p{Lu})/gu, "$1 $2").replace(/(\p{Lu}+)(\p{Lu}\p{Ll})/gu, "$1 $2");
  const terms: string[] = [];
  for (const word of spaced.toLowerCase().split(/[^\p{L}\p{N}]+/u)) {
    if (word === "" || (!keepStopWords && STOP_WORDS.has(word))) continue;
    terms.push(stem(word));
  }
  return terms;
}

/** A name as search compares it whole: lower case, letters and digits only (`Invoice_Total` → `invoicetotal`). */
export function squash(text: string): string {
  return text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, "");
}

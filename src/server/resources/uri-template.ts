/** RFC 6570 URI templates, compiled once into a matcher that extracts variables from a URI. */

import { DefinitionError } from "../../core/definition-error.ts";

export interface UriTemplate {
  readonly template: string;
  readonly variables: readonly string[];
  /** The variables of a URI this template produces, or undefined when it does not match. */
  match(uri: string): Record<string, string> | undefined;
}

const EXPRESSION = /\{([+#./;?&]?)([A-Za-z0-9_.%,*:]+)\}/g;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

function decode(value: string): string | undefined {
  try {
    return decodeURIComponent(value);
  } catch {
    return undefined;
  }
}

/**
 * Compiles the operators resource templates use: `{var}` (one segment), `{+var}` and `{#var}`
 * (reserved characters too), `{/var}`, `{.var}`, `{;var}`, `{?a,b}` and `{&a}` (level 1 to 3;
 * prefixes and explode modifiers are matched but not split).
 */
export function compileUriTemplate(template: string): UriTemplate {
  const variables: string[] = [];
  const queryNames: string[] = [];
  let pattern = "^";
  let last = 0;
  for (const match of template.matchAll(EXPRESSION)) {
    pattern += escapeRegExp(template.slice(last, match.index));
    last = match.index + match[0].length;
    const operator = match[1] ?? "";
    const names = (match[2] ?? "").split(",").map((name) => name.replace(/[*]$|:\d+$/, ""));
    if (names.some((name) => name === "")) throw new DefinitionError(`URI template ${template}: empty variable name`);
    if (operator === "?" || operator === "&") {
      // Query parameters: matched below from the query string, in any order.
      queryNames.push(...names);
      variables.push(...names);
      pattern += `(?:[?&].*)?`;
      continue;
    }
    const value = operator === "+" || operator === "#" ? "(.+?)" : "([^/?#,]+?)";
    const prefix = operator === "#" ? "#" : operator === "/" ? "/" : operator === "." ? "\\." : operator === ";" ? ";" : "";
    const separator = operator === "" || operator === "+" || operator === "#" ? "," : prefix;
    for (const [index, name] of names.entries()) {
      variables.push(name);
      pattern += `${index === 0 ? escapeRegExp(prefix) : escapeRegExp(separator)}${operator === ";" ? `${escapeRegExp(name)}=?` : ""}${value}`;
    }
  }
  if (template.slice(last).includes("{") || template.slice(last).includes("}")) throw new DefinitionError(`URI template ${template}: unbalanced braces`);
  pattern += `${escapeRegExp(template.slice(last))}$`;
  const regex = new RegExp(pattern);
  const pathNames = variables.filter((name) => !queryNames.includes(name));

  return {
    template,
    variables,
    match(uri) {
      const found = regex.exec(uri);
      if (!found) return undefined;
      const values: Record<string, string> = {};
      for (const [index, name] of pathNames.entries()) {
        const decoded = decode(found[index + 1] ?? "");
        if (decoded === undefined) return undefined;
        values[name] = decoded;
      }
      if (queryNames.length > 0) {
        const query = uri.indexOf("?");
        const params = new URLSearchParams(query === -1 ? "" : uri.slice(query + 1));
        for (const name of queryNames) {
          const value = params.get(name);
          if (value !== null) values[name] = value;
        }
      }
      return values;
    },
  };
}

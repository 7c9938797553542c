import { describe, expect, it } from "vitest";
import { SearchIndex } from "../../../../src/server/search/search-index.ts";
import type { SearchDocument } from "../../../../src/server/tools/tool-search.ts";
import { squash, stem, tokenize } from "../../../../src/server/search/search-tokens.ts";

describe("search terms", () => {
  it("splits names at _ . - and camelCase, lower-cases them and drops common words", () => {
    expect(tokenize("crm_contact.update-v2")).toEqual(["crm", "contact", "update", "v2"]);
    expect(tokenize("getHTTPResponseCode")).toEqual(["get", "http", "response", "code"]);
    expect(tokenize("Lists the invoices of a customer")).toEqual(["list", "invoice", "customer"]);
    expect(tokenize("the of", true)).toEqual(["the", "of"]);
  });

  it("folds plurals the same way for documents and queries", () => {
    expect(["invoices", "companies", "addresses", "status", "analysis", "bus"].map(stem)).toEqual([
      "invoice",
      "company",
      "address",
      "status",
      "analysis",
      "bus",
    ]);
  });

  it("splits text beyond ASCII at letters and digits too", () => {
    expect(tokenize("Crée une facture (brouillon)")).toEqual(["crée", "une", "facture", "brouillon"]);
    expect(tokenize("größeBerechnen")).toEqual(["größe", "berechnen"]);
  });

  it("squashes a name to its letters and digits", () => {
    expect(squash("Invoice_Total")).toBe("invoicetotal");
    expect(squash("invoice total")).toBe("invoicetotal");
  });
});

const CATALOG: SearchDocument[] = [
  { name: "invoice_total", description: "Adds up the lines of an invoice.", params: [{ name: "lines", description: "Amounts." }] },
  { name: "report_export", description: "Exports a report. Mentions invoice_total in passing: invoice total invoice total.", params: [] },
  { name: "crm_contact_update", title: "Update contact", description: "Updates a contact in the CRM.", params: [{ name: "email" }] },
  { name: "crm_contact_get", title: "Get contact", description: "Reads a contact from the CRM.", params: [{ name: "email" }] },
  { name: "mail_send", description: "Sends an email.", params: [{ name: "to", description: "Email address of the contact." }] },
  { name: "twin_b", description: "Identical words.", params: [] },
  { name: "twin_a", description: "Identical words.", params: [] },
  { name: "weather_forecast", description: "Forecast for a city.", params: [{ name: "city" }], hint: "rain sunshine temperature" },
];

const names = (index: SearchIndex, query: string, limit = 10, allowed?: Uint8Array) =>
  index.search(query, limit, allowed).hits.map((h) => CATALOG[h.doc]?.name);

describe("SearchIndex", () => {
  const index = new SearchIndex(CATALOG);

  it("ranks the tool named exactly by the query above one whose description repeats it", () => {
    expect(names(index, "invoice_total")[0]).toBe("invoice_total");
    expect(names(index, "invoice total")[0]).toBe("invoice_total");
    expect(names(index, "INVOICE_TOTAL")[0]).toBe("invoice_total");
  });

  it("finds tools by words of their title, description, parameters and search hint", () => {
    expect(names(index, "update a contact")[0]).toBe("crm_contact_update");
    expect(names(index, "email")).toEqual(expect.arrayContaining(["mail_send", "crm_contact_update", "crm_contact_get"]));
    expect(names(index, "will it rain")).toEqual(["weather_forecast"]);
  });

  it("breaks equal scores by name, the same way every time", () => {
    const first = names(index, "identical words");
    expect(first).toEqual(["twin_a", "twin_b"]);
    for (let i = 0; i < 5; i++) expect(names(index, "identical words")).toEqual(first);
    expect(names(index, "identical words", 1)).toEqual(["twin_a"]);
  });

  it("matches the beginning of a name, and a word fragment against the words it begins", () => {
    expect(names(index, "crm_contact").slice(0, 2).sort()).toEqual(["crm_contact_get", "crm_contact_update"]);
    expect(names(index, "forec")).toEqual(["weather_forecast"]);
  });

  it("counts every match and returns only the best `limit`", () => {
    const outcome = index.search("contact", 1);
    expect(outcome.matched).toBe(3);
    expect(outcome.hits).toHaveLength(1);
  });

  it("leaves out documents the caller may not see, in results and in the count", () => {
    const allowed = Uint8Array.from(CATALOG, (doc) => (doc.name.startsWith("crm_") ? 0 : 1));
    expect(index.search("contact", 10, allowed).matched).toBe(1);
    expect(names(index, "contact", 10, allowed)).toEqual(["mail_send"]);
  });

  it("matches nothing for a query of common words only, or words no tool has", () => {
    expect(index.search("the of and", 10).matched).toBe(0);
    expect(index.search("zebra", 10).matched).toBe(0);
    expect(new SearchIndex([]).search("anything", 10)).toEqual({ matched: 0, hits: [] });
  });
});

describe("SearchIndex with a word every tool has", () => {
  const docs: SearchDocument[] = Array.from({ length: 20 }, (_, i) => ({
    name: `tool_${String(i).padStart(2, "0")}`,
    description: `Tool number ${i}.`,
    params: [],
  }));
  const index = new SearchIndex(docs);

  it("leaves that word out when another word of the query decides", () => {
    expect(index.search("tool 07", 10)).toMatchObject({ matched: 1, hits: [{ doc: 7 }] });
  });

  it("still matches on it when it is the only word", () => {
    expect(index.search("tool", 5).matched).toBe(20);
  });
});

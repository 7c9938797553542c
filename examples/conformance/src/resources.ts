/** Resources and the resource template the conformance suites read (resources-*, caching, sep-2164). */

import { defineResource, defineResourceTemplate } from "edge-mcp";
import { PNG_BYTES } from "./content.ts";

/** resources-read-text; also `resources/list[0]`, which `caching` reads back. */
export const staticText = defineResource({
  uri: "test://static-text",
  name: "static-text",
  title: "Static Text Resource",
  description: "A fixed text resource (resources-read-text).",
  mimeType: "text/plain",
  read: () => "This is the content of the static text resource.",
});

/** resources-read-binary: bytes are sent as a base64 blob. */
export const staticBinary = defineResource({
  uri: "test://static-binary",
  name: "static-binary",
  title: "Static Binary Resource",
  description: "A fixed binary resource: a 1x1 red PNG (resources-read-binary).",
  mimeType: "image/png",
  read: () => PNG_BYTES,
});

/** resources-subscribe / resources-unsubscribe (2025) subscribe to this one. */
export const watchedResource = defineResource({
  uri: "test://watched-resource",
  name: "watched-resource",
  title: "Watched Resource",
  description: "A resource clients may subscribe to (resources-subscribe).",
  mimeType: "text/plain",
  read: () => "Watched resource content.",
});

/** resources-templates-read: `test://template/123/data` returns JSON that mentions the id. */
export const dataTemplate = defineResourceTemplate({
  uriTemplate: "test://template/{id}/data",
  name: "template-data",
  title: "Template Data Resource",
  description: "JSON data for any id (resources-templates-read).",
  mimeType: "application/json",
  read: ({ variables }) => {
    const id = variables["id"];
    if (id === undefined || id === "") return undefined;
    return JSON.stringify({ id, templateTest: true, data: `Data for ID: ${id}` });
  },
  complete: {
    id: (value) => ["1", "42", "123"].filter((id) => id.startsWith(value)),
  },
});

export const resources = [staticText, staticBinary, watchedResource];
export const resourceTemplates = [dataTemplate];

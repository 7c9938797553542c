// The counter's page, inside the host's sandboxed iframe: it talks to the host through ext-apps' App.
import { App } from "@modelcontextprotocol/ext-apps";

const label = document.getElementById("label") as HTMLElement;
const count = document.getElementById("count") as HTMLElement;
const status = document.getElementById("status") as HTMLElement;
const bump = document.getElementById("bump") as HTMLButtonElement;

const app = new App({ name: "counter", version: "0.1.0" });
let current = 0;

const countOf = (result: { structuredContent?: unknown }): number | undefined => {
  const content = result.structuredContent as { count?: unknown } | undefined;
  return typeof content?.count === "number" ? content.count : undefined;
};

// The host relays the input and the result of show_counter.
app.ontoolinput = ({ arguments: args }) => {
  label.textContent = typeof args?.["label"] === "string" ? args["label"] : "counter";
};
app.ontoolresult = (result) => {
  current = countOf(result) ?? 0;
  count.textContent = String(current);
  status.textContent = "";
  bump.disabled = false;
};

// +1 calls the app-only tool counter_add on the server, through the host.
bump.addEventListener("click", () => {
  bump.disabled = true;
  app
    .callServerTool({ name: "counter_add", arguments: { count: current } })
    .then((result) => {
      current = countOf(result) ?? current;
      count.textContent = String(current);
      status.textContent = result.isError ? "the call failed" : "";
    })
    .catch((error: unknown) => {
      status.textContent = `the call failed: ${String(error)}`;
    })
    .finally(() => {
      bump.disabled = false;
    });
});

void app.connect();

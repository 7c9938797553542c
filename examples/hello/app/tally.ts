// The tally app's view, inside the host's sandboxed iframe: it talks to the host through ext-apps' App.
import { App } from "@modelcontextprotocol/ext-apps";

const label = document.getElementById("label") as HTMLElement;
const count = document.getElementById("count") as HTMLElement;
const status = document.getElementById("status") as HTMLElement;
const bump = document.getElementById("bump") as HTMLButtonElement;

const app = new App({ name: "tally", version: "1.0.0" });
let current = 0;

const countOf = (result: { structuredContent?: unknown }): number | undefined => {
  const content = result.structuredContent as { count?: unknown } | undefined;
  return typeof content?.count === "number" ? content.count : undefined;
};

app.ontoolinput = ({ arguments: args }) => {
  label.textContent = typeof args?.["label"] === "string" ? args["label"] : "tally";
  status.textContent = "input received";
};
app.ontoolresult = (result) => {
  current = countOf(result) ?? 0;
  count.textContent = String(current);
  status.textContent = "result received";
  bump.disabled = false;
};
bump.addEventListener("click", () => {
  bump.disabled = true;
  status.textContent = "bumping";
  app
    .callServerTool({ name: "tally_bump", arguments: { count: current } })
    .then((result) => {
      current = countOf(result) ?? current;
      count.textContent = String(current);
      status.textContent = result.isError ? "bump failed" : "bumped";
    })
    .catch((error: unknown) => {
      status.textContent = `bump failed: ${String(error)}`;
    })
    .finally(() => {
      bump.disabled = false;
    });
});

void app.connect();

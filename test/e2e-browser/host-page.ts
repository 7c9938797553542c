// A minimal MCP Apps host, bundled for the browser: the official v2 client talks to the server,
// ext-apps' AppBridge talks to the app in a sandboxed iframe over postMessage.
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { AppBridge, PostMessageTransport } from "@modelcontextprotocol/ext-apps/app-bridge";

const UI = "io.modelcontextprotocol/ui";
const MIME = "text/html;profile=mcp-app";

interface Csp {
  connectDomains?: string[];
  resourceDomains?: string[];
  frameDomains?: string[];
  baseUriDomains?: string[];
}

const log = (line: string): void => {
  const item = document.createElement("li");
  item.textContent = line;
  document.getElementById("log")?.append(item);
};

/** The iframe's policy: SEP-1865's restrictive default, loosened only by the declared origins. */
function policy(csp: Csp | undefined): string {
  const with_ = (base: string, extra: string[] | undefined) => [base, ...(extra ?? [])].join(" ");
  const resources = csp?.resourceDomains;
  return [
    "default-src 'none'",
    `script-src ${with_("'self' 'unsafe-inline'", resources)}`,
    `style-src ${with_("'self' 'unsafe-inline'", resources)}`,
    `img-src ${with_("'self' data:", resources)}`,
    `font-src ${with_("'self'", resources)}`,
    `media-src ${with_("'self' data:", resources)}`,
    `connect-src ${csp?.connectDomains?.length ? csp.connectDomains.join(" ") : "'none'"}`,
    `frame-src ${csp?.frameDomains?.length ? csp.frameDomains.join(" ") : "'none'"}`,
    `base-uri ${csp?.baseUriDomains?.length ? csp.baseUriDomains.join(" ") : "'self'"}`,
  ].join("; ");
}

async function run(): Promise<void> {
  const params = new URLSearchParams(location.search);
  const server = params.get("server") as string;
  const client = new Client({ name: "e2e-apps-host", version: "1.0.0" }, { capabilities: { extensions: { [UI]: { mimeTypes: [MIME] } } } });
  await client.connect(new StreamableHTTPClientTransport(new URL("/mcp", server)));
  log(`connected to ${client.getServerVersion()?.name ?? "?"}`);

  const { tools } = await client.listTools();
  const tool = tools.find((t) => t.name === params.get("tool"));
  const ui = tool?._meta?.["ui"] as { resourceUri?: string } | undefined;
  if (!tool || !ui?.resourceUri) throw new Error(`no app tool ${params.get("tool") ?? ""}`);
  log(`tool ${tool.name} shows ${ui.resourceUri}`);

  const args = JSON.parse(params.get("args") ?? "{}") as Record<string, unknown>;
  const result = await client.callTool({ name: tool.name, arguments: args });
  log(`called ${tool.name}`);
  const read = await client.readResource({ uri: ui.resourceUri });
  const content = read.contents[0] as { mimeType?: string; text?: string; _meta?: Record<string, unknown> };
  if (content.mimeType !== MIME || typeof content.text !== "string") throw new Error(`${ui.resourceUri} is not an app (${content.mimeType ?? "no mime type"})`);
  const csp = (content._meta?.["ui"] as { csp?: Csp } | undefined)?.csp;
  const rule = policy(csp);
  log(`read ${ui.resourceUri} (${content.text.length} chars, ${String(content._meta?.["edge-mcp/digest"])})`);

  const iframe = document.createElement("iframe");
  iframe.id = "app";
  iframe.setAttribute("sandbox", "allow-scripts");
  iframe.dataset["csp"] = rule;
  iframe.style.cssText = "width: 420px; height: 320px; border: 1px solid #999";
  document.getElementById("frame")?.append(iframe);

  const bridge = new AppBridge(client, { name: "e2e-apps-host", version: "1.0.0" }, { serverTools: {} });
  bridge.onsizechange = ({ height }) => {
    if (height !== undefined) iframe.style.height = `${String(height)}px`;
  };
  bridge.oninitialized = () => {
    log("app initialized");
    void bridge.sendToolInput({ arguments: args }).then(() => bridge.sendToolResult(result));
  };
  await bridge.connect(new PostMessageTransport(iframe.contentWindow as Window, iframe.contentWindow as Window));
  const meta = `<meta http-equiv="Content-Security-Policy" content="${rule.replaceAll('"', "&quot;")}">`;
  iframe.srcdoc = content.text.replace(/<head>/i, `<head>${meta}`);
  document.body.dataset["host"] = "ready";
}

run().catch((error: unknown) => {
  log(`error: ${error instanceof Error ? error.message : String(error)}`);
  document.body.dataset["host"] = "failed";
});

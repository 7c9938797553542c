// Builds each MCP App view of the demo (examples/hello/app/NAME.ts + NAME.html) into one HTML file
// with its script inlined, examples/hello/public/apps/NAME.html: a static asset the Worker reads on demand.
import { readFileSync, mkdirSync, writeFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { build } from "esbuild";
import { sdkWithoutSideEffects, zodEnglishOnly } from "./app-build-plugins.mjs";

const APPS = ["tally"];
const root = new URL("../examples/hello/", import.meta.url);

for (const name of APPS) {
  const out = await build({
    entryPoints: [new URL(`app/${name}.ts`, root).pathname],
    bundle: true,
    format: "esm",
    platform: "browser",
    target: "es2022",
    minify: true,
    write: false,
    legalComments: "none",
    // 650 KiB without them, about 325 KiB with them (87 KiB gzip).
    plugins: [sdkWithoutSideEffects, zodEnglishOnly],
  });
  // An inline script ends at the first "</script": keep the bundle from containing one.
  const script = (out.outputFiles[0]?.text ?? "").replaceAll("</script", "<\\/script");
  const html = readFileSync(new URL(`app/${name}.html`, root), "utf8").replace("/*APP_SCRIPT*/", () => script);
  mkdirSync(new URL("public/apps/", root), { recursive: true });
  writeFileSync(new URL(`public/apps/${name}.html`, root), html);
  console.log(`examples/hello/public/apps/${name}.html: ${(html.length / 1024).toFixed(1)} KiB, ${(gzipSync(html).length / 1024).toFixed(1)} KiB gzip`);
}

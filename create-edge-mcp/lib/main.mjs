// create-edge-mcp: reads the command line (asking for what is missing, on a terminal only), then copies the template.

import { basename, relative, resolve } from "node:path";
import { createInterface } from "node:readline/promises";
import { TEMPLATES, USAGE, UsageError, checkName, checkTemplate, parseOptions } from "./options.mjs";
import { checkoutSteps, registryHas } from "./registry.mjs";
import { ScaffoldError, edgeMcpVersion, scaffold } from "./scaffold.mjs";

/**
 * Runs the command; returns the exit code: 0 done, 1 the project could not be made, 2 a bad
 * command line.
 * @param {string[]} argv
 * @returns {Promise<number>}
 */
export async function main(argv) {
  try {
    const options = parseOptions(argv);
    if (options.help) {
      process.stdout.write(`${USAGE}\n`);
      return 0;
    }
    const ask = process.stdin.isTTY && process.stdout.isTTY ? createInterface({ input: process.stdin, output: process.stdout }) : undefined;
    try {
      const directory =
        options.directory ?? (ask ? (await ask.question("Directory of the new project: (my-mcp-server) ")).trim() || "my-mcp-server" : undefined);
      if (directory === undefined) throw new UsageError("give the directory of the new project");
      const name = options.name ?? checkName(basename(resolve(directory)), "the directory's name (pass --name)");
      const template = options.template ?? (ask ? checkTemplate(await chooseTemplate(ask)) : "basic");
      const target = resolve(directory);
      const made = await scaffold({ template, name, target });
      const shown = relative(process.cwd(), target) || ".";
      process.stdout.write(`Created ${name} from the ${template} template in ${shown}\n\n`);
      const version = await edgeMcpVersion();
      const onRegistry = await registryHas("edge-mcp", version);
      if (onRegistry === "published") {
        process.stdout.write("Next:\n");
        if (shown !== ".") process.stdout.write(`  cd ${shown}\n`);
        process.stdout.write("  npm install\n  npm run dev    # serves http://127.0.0.1:8787/mcp\n  npm test\n");
      } else {
        // Only the steps that work: a plain `npm install` would fail on edge-mcp itself.
        const why = onRegistry === "missing" ? "is not on the npm registry" : "could not be found on the npm registry (offline, or no answer)";
        process.stdout.write(
          `Next: edge-mcp@${version} ${why}, so a plain \`npm install\` cannot fetch it. Install it from a checkout of edge-mcp:\n` +
            `${checkoutSteps(version, shown === "." ? undefined : shown, process.cwd())}\n`,
        );
      }
      if (made.devApiKey) process.stdout.write("\nA development API key is in .dev.vars (DEV_API_KEY, not committed); wrangler.toml holds only its SHA-256.\n");
      return 0;
    } finally {
      ask?.close();
    }
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`create-edge-mcp: ${error.message}\n\n${USAGE}\n`);
      return 2;
    }
    if (error instanceof ScaffoldError) {
      process.stderr.write(`create-edge-mcp: ${error.message}\n`);
      return 1;
    }
    throw error;
  }
}

/** @param {import("node:readline/promises").Interface} ask */
async function chooseTemplate(ask) {
  const names = Object.keys(TEMPLATES);
  const list = names.map((name, i) => `  ${i + 1}. ${name}: ${TEMPLATES[/** @type {keyof typeof TEMPLATES} */ (name)]}`).join("\n");
  const answer = (await ask.question(`Template:\n${list}\nChoose 1-${names.length} or a name: (1) `)).trim();
  if (answer === "") return "basic";
  return names[Number(answer) - 1] ?? answer;
}

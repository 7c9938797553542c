// The command line of create-edge-mcp: a directory, --template and --name, checked before anything is written.

/** The templates a project can start from, with a line each for the usage text and the prompt. */
export const TEMPLATES = {
  basic: "one Worker with two tools (JSON Schemas that type their arguments) and a test",
  "multi-tenant": "tenants from a config document, a tool service Worker, rate limits, sessions",
  auth: "OAuth 2.1 resource server: your identity provider's tokens, plus API keys",
  apps: "an MCP App: a tool whose interactive page (ext-apps' App) is built into static assets",
  oauth: "its own OAuth authorization server: users sign in with your OpenID provider, tools act as them",
};

// A Worker name (and an npm package name): lowercase letters, digits and single dashes, at most 50
// characters, so that `<name>-tools` (the multi-tenant template's second Worker) stays within 63.
const NAME = /^[a-z0-9](?:[a-z0-9]|-(?=[a-z0-9])){0,49}$/;

export const USAGE = `Usage: npm create edge-mcp@latest [directory] -- [--template NAME] [--name NAME]
       create-edge-mcp [directory] [--template NAME] [--name NAME]

Makes a new edge-mcp project (an MCP server on Cloudflare Workers) in [directory].

Options:
  --template NAME  ${Object.entries(TEMPLATES)
    .map(([name, text]) => `${name}: ${text}`)
    .join("\n                   ")}
  --name NAME      the Worker's and the package's name (default: the directory's name);
                   lowercase letters, digits and dashes
  -h, --help       this text

Given the directory and --template, it asks nothing.`;

/** A bad command line: the message names the argument; main prints it with the usage and exits 2. */
export class UsageError extends Error {
  /** @param {string} message */
  constructor(message) {
    super(message);
    this.name = "UsageError";
  }
}

/**
 * @typedef {object} Options
 * @property {string | undefined} directory where to create the project
 * @property {string | undefined} template one of TEMPLATES
 * @property {string | undefined} name the Worker's and the package's name
 * @property {boolean} help
 */

/**
 * Reads the arguments. Missing values stay undefined (main asks for them on a terminal); values
 * given are checked here.
 * @param {string[]} argv
 * @returns {Options}
 */
export function parseOptions(argv) {
  /** @type {Options} */
  const options = { directory: undefined, template: undefined, name: undefined, help: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = /** @type {string} */ (argv[i]);
    const [flag, inline] = arg.startsWith("--") && arg.includes("=") ? [arg.slice(0, arg.indexOf("=")), arg.slice(arg.indexOf("=") + 1)] : [arg, undefined];
    const value = () => {
      const next = inline ?? argv[++i];
      if (next === undefined || next === "") throw new UsageError(`${flag} needs a value`);
      return next;
    };
    if (flag === "-h" || flag === "--help") options.help = true;
    else if (flag === "--template" || flag === "-t") options.template = checkTemplate(value());
    else if (flag === "--name" || flag === "-n") options.name = checkName(value(), "--name");
    else if (flag.startsWith("-")) throw new UsageError(`unknown option ${flag}`);
    else if (options.directory === undefined) options.directory = arg;
    else throw new UsageError(`one directory only; got ${options.directory} and ${arg}`);
  }
  return options;
}

/** @param {string} template */
export function checkTemplate(template) {
  if (!Object.hasOwn(TEMPLATES, template)) throw new UsageError(`unknown template "${template}"; choose ${Object.keys(TEMPLATES).join(", ")}`);
  return template;
}

/**
 * @param {string} name
 * @param {string} what where the name came from, for the message
 */
export function checkName(name, what) {
  if (!NAME.test(name))
    throw new UsageError(`${what} "${name}" is not a usable name: use 1-50 lowercase letters, digits and single dashes (e.g. my-mcp-server)`);
  return name;
}

// The program the harness imports in a sandbox: code mode writes it (src/server/code-mode/program.ts) from the model's code.
declare const program: unknown;
export default program;

// What the harness imports from its sibling module in a sandbox, src/server/code-mode/sandbox/allocation-budget.js.
export function installAllocationBudget(maxBytes: number): { renew(): void };

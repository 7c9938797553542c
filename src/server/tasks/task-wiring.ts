/**
 * Where a server's tasks feature comes from: a task gateway's module registers it as it loads, so
 * only a Worker that can run tasks bundles the tasks methods. Without it, task tools run in their
 * request, and a `required` one is refused (the tools feature).
 */

import type { Feature } from "../feature.ts";

/** The tasks feature, once a module that runs tasks has loaded (createTaskObject's, createMemoryTaskGateway's). */
export const taskWiring: { feature?: Feature } = {};

/**
 * The demo skill (Agent Skills over MCP, SEP-2640): how to keep notes with the notebook_* tools.
 * Clients list it with `skills/list` and read its files as `skill://notebook-workflow/...` resources.
 */

import { defineSkill } from "edge-mcp";

const SKILL_MD = `---
name: notebook-workflow
description: Keep notes across tool calls with the notebook_open, notebook_append and notebook_read tools of this server.
license: MIT
metadata:
  version: "1.0"
---
# Notebook workflow

Use this skill when the user wants you to remember something between tool calls:
a shopping list, the steps of a task, notes from a conversation.

1. Call \`notebook_open\` with a short \`title\`. It returns a \`handle\`.
2. Keep the handle. Call \`notebook_append\` with the handle and one \`text\` line per note.
3. Call \`notebook_read\` with the handle to get every line back, numbered.

Notebooks expire after an hour and belong to the caller that opened them. When a call says the
handle is unknown or expired, open a new notebook and tell the user what was lost.

See [references/handles.md](references/handles.md) for what a handle is.
`;

const HANDLES_MD = `# Handles

A handle (\`h_\` followed by 32 characters) names a piece of state the server keeps for you.
The 2026-07-28 protocol has no sessions, so state between calls travels as an ordinary tool
argument instead. Treat a handle as opaque: never edit it, never guess one, and pass it back
exactly as you received it. A handle opened by someone else reads as unknown.
`;

export const notebookWorkflow = defineSkill({
  name: "notebook-workflow",
  files: {
    "SKILL.md": SKILL_MD,
    "references/handles.md": HANDLES_MD,
  },
});

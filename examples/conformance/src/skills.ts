/**
 * Skills the sep-2640-skills-* scenarios discover (SEP-2640, modelled on its examples): the first
 * listed has subfolders (sep-2640-skills-directory reads its folder), one sits under an
 * organisational path, and one has extra frontmatter fields.
 */

import { defineSkill } from "edge-mcp";

export const pdfProcessing = defineSkill({
  name: "pdf-processing",
  files: {
    "SKILL.md": `---
name: pdf-processing
description: Extract, fill, and assemble PDF documents
metadata:
  version: "2.1.0"
---
# PDF processing

- To read a form, follow [references/FORMS.md](references/FORMS.md).
- To pull text out of a PDF, run \`scripts/extract.py\`.
- To assemble a document, pick the right template from \`templates/\`.
`,
    "references/FORMS.md": "# Forms\n\nFill every field marked with an asterisk; leave the others blank.\n",
    "scripts/extract.py": 'import sys\n\nprint(f"extracting text from {sys.argv[1]}")\n',
    "templates/invoice.md": "# Invoice\n\nNumber: {{number}}\nTotal: {{total}}\n",
    "templates/purchase-order.md": "# Purchase order\n\nSupplier: {{supplier}}\n",
    "templates/regional/eu-invoice.md": "# EU invoice\n\nVAT number: {{vat}}\n",
  },
});

export const gitWorkflow = defineSkill({
  name: "git-workflow",
  files: {
    "SKILL.md": `---
name: git-workflow
description: Follow this team's Git conventions for branching and commits
---
# Git workflow

Branch from \`main\` as \`<type>/<topic>\`; write commit subjects in the imperative mood.
`,
  },
});

export const refunds = defineSkill({
  name: "refunds",
  path: "acme/billing",
  files: {
    "SKILL.md": `---
name: refunds
description: Process customer refund requests per company policy
license: Apache-2.0
---
# Refunds

Refund within 30 days of purchase; answer the customer with [examples/email.md](examples/email.md).
`,
    "examples/email.md": "Dear customer,\n\nYour refund of {{amount}} is on its way.\n",
  },
});

export const skills = [pdfProcessing, gitWorkflow, refunds];

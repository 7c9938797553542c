/** The skills extension (SEP-2640): `skills/list`, `skills/get`, `resources/directory/read`. */

import { own } from "../../core/json.ts";
import type { Feature } from "../feature.ts";
import { listPage } from "../lists/list-page.ts";
import { ADDED_RESOURCES } from "../resources/resource-services.ts";
import { RawResult } from "../raw-result.ts";
import { SKILLS_EXTENSION, SkillRegistry } from "./skill-registry.ts";

/** Skills, when the server declares any: declared in initialize and server/discover alike; skill files are also resources. */
export const skillsFeature: Feature = {
  name: "skills",
  reads: ["skills"],
  provides: [ADDED_RESOURCES],
  install: (host) => {
    const skills = new SkillRegistry(host.options.skills ?? [], host.lists, host.options.skillLimits);
    // Skill files are resources too: the resources feature (installed after this one) serves them.
    host.provide(ADDED_RESOURCES, skills.resources());
    if (skills.size === 0) return {};
    return {
      extensions: { [SKILLS_EXTENSION]: { directoryRead: true } },
      methods: [
        ["skills/list", (request, ctx) => listPage(request, ctx, (cursor, era) => skills.listPage(cursor, era))],
        ["skills/get", async (request, ctx) => new RawResult(await skills.get(request.params ? own(request.params, "uri") : undefined, ctx.era))],
        [
          "resources/directory/read",
          (request, ctx) => listPage(request, ctx, (cursor, era) => skills.directoryPage(request.params ? own(request.params, "uri") : undefined, cursor, era)),
        ],
      ],
    };
  },
};

/** Listings a front end shows: the user's custom prompts, the skills seen from some folders, the models to switch to. */
import type { EventMsg } from "../../protocol/events.js";
import { discoverSkills } from "../../config/skills.js";
import { discoverPrompts, promptsDir } from "../../config/custom-prompts.js";
import { findProjectRoot } from "../../util/project-root.js";
import type { SessionState } from "../session-state.js";
import { availableModels } from "../model-listing.js";
import type { OpFamily } from "./types.js";

type SkillsSeen = Extract<EventMsg, { type: "list_skills_response" }>["skills"][number];

export const listingOps: OpFamily<"list_custom_prompts" | "list_skills" | "list_models"> = {
  list_models: (s, id) => {
    s.send(id, { type: "list_models_response", ...availableModels(s.options.accountModels, s.settings.model, s.options.settings.model) });
  },
  list_custom_prompts: (s, id) => {
    const codexHome = s.options.codexHome;
    const { prompts } = codexHome ? discoverPrompts(promptsDir(codexHome)) : { prompts: [] };
    s.send(id, { type: "list_custom_prompts_response", custom_prompts: prompts });
  },
  list_skills: (s, id, op) => {
    const cwds = op.cwds && op.cwds.length > 0 ? op.cwds : [s.settings.cwd];
    s.send(id, { type: "list_skills_response", skills: cwds.map((cwd) => skillsSeenFrom(s, cwd)) });
  },
};

/** Skills as a UI lists them for one folder (found afresh, so new files show up). */
function skillsSeenFrom(s: SessionState, cwd: string): SkillsSeen {
  const codexHome = s.options.codexHome;
  if (!codexHome) return { cwd, skills: [], errors: [] };
  const found = discoverSkills({ codexHome, cwd, projectRoot: findProjectRoot(cwd, [".git"]) ?? cwd });
  return {
    cwd,
    skills: found.skills.map((skill) => ({
      name: skill.name,
      description: skill.description,
      ...(skill.shortDescription !== undefined ? { short_description: skill.shortDescription } : {}),
      path: skill.path,
      scope: skill.scope,
    })),
    errors: found.errors,
  };
}

/**
 * Decides which thread a run works on and how it is recorded: a new thread (file created at its
 * first turn), a resumed one (appending to its file), or a fork (a new file copied from the
 * parent, then resumed). `--ephemeral` reads but never writes.
 */
import { join } from "node:path";
import type { ThreadTarget } from "../protocol/threads.js";
import { uuidv7 } from "../util/ids.js";
import type { ResumeOptions } from "./session-options.js";
import { SESSIONS_SUBDIR, isThreadId } from "../rollout/format.js";
import { forkThread } from "../rollout/fork.js";
import { findArchivedThreadPath } from "../rollout/archive.js";
import { latestThread } from "../rollout/list.js";
import { lookupThread } from "../rollout/lookup.js";
import { loadThread } from "../rollout/reconstruct.js";
import { RolloutRecorder } from "../rollout/recorder.js";

export type { ThreadTarget };

export interface OpenThreadRequest {
  target: ThreadTarget | null;
  ephemeral: boolean;
  /** Build the redraw of a resumed or forked thread (see loadThread). */
  redraw: boolean;
  codexHome: string;
  cwd: string;
  modelProvider: string;
  originator: string;
  cliVersion: string;
  /** The front end, as session_meta's `source` names it: `exec`, `mcp`. */
  source: string;
  /** Recorded in a new thread's session_meta. */
  baseInstructions: string;
}

export interface OpenedThread {
  threadId?: string;
  recorder: RolloutRecorder | null;
  resume?: ResumeOptions;
  /** Said to the user on stderr before the run. */
  notices: string[];
}

/** The thread the user named does not exist (or was not named); nothing was started. */
export class ThreadNotFoundError extends Error {}

export function openThread(req: OpenThreadRequest): OpenedThread {
  if (req.target === null) return newThread(req, []);
  const path = resolveTarget(req, req.target);
  if (path === null) {
    // As the reference does, `--last` with nothing to continue starts afresh.
    const where = req.target.all ? "" : ` in ${req.cwd}`;
    return newThread(req, [`No recorded session${where} to ${req.target.kind}; starting a new one.`]);
  }
  if (req.target.kind === "resume") {
    const thread = loadThread(path, { redraw: req.redraw });
    return {
      recorder: req.ephemeral ? null : RolloutRecorder.append(path),
      resume: { thread, warnOnModelChange: true },
      notices: [],
    };
  }
  if (req.ephemeral) {
    // A fork that writes nothing: the parent's history under a new id, in memory only.
    return { threadId: uuidv7(), recorder: null, resume: { thread: loadThread(path, { redraw: req.redraw }), warnOnModelChange: false }, notices: [] };
  }
  const fork = forkThread({
    codexHome: req.codexHome,
    sourcePath: path,
    cwd: req.cwd,
    originator: req.originator,
    cliVersion: req.cliVersion,
    source: req.source,
    modelProvider: req.modelProvider,
  });
  const thread = loadThread(fork.path, { redraw: req.redraw });
  thread.warnings.unshift(...fork.warnings);
  return {
    recorder: RolloutRecorder.append(fork.path),
    resume: { thread, warnOnModelChange: false },
    notices: [`Forked session ${fork.parentId} into ${fork.threadId}.`],
  };
}

function newThread(req: OpenThreadRequest, notices: string[]): OpenedThread {
  const threadId = uuidv7();
  const recorder = req.ephemeral
    ? null
    : RolloutRecorder.create({
        codexHome: req.codexHome,
        threadId,
        cwd: req.cwd,
        originator: req.originator,
        cliVersion: req.cliVersion,
        source: req.source,
        modelProvider: req.modelProvider,
        baseInstructions: req.baseInstructions,
      });
  return { threadId, recorder, notices };
}

/** The rollout file the target names; null only for `--last` finding nothing. */
export function resolveTarget(
  req: { codexHome: string; cwd: string; modelProvider?: string },
  target: ThreadTarget,
): string | null {
  const sessions = join(req.codexHome, SESSIONS_SUBDIR);
  const interactiveOnly = target.interactiveOnly === true;
  if (target.sessionId !== undefined) {
    const found = lookupThread(req.codexHome, target.sessionId, { where: "active", interactiveOnly });
    if (found !== null) return found.path;
    if (isThreadId(target.sessionId)) {
      const archived = findArchivedThreadPath(req.codexHome, target.sessionId) !== null;
      throw new ThreadNotFoundError(
        archived
          ? `Session ${target.sessionId} is archived; \`codex-ts unarchive ${target.sessionId}\` brings it back.`
          : `No recorded session ${target.sessionId} in ${sessions}. \`codex-ts sessions --all\` lists them.`,
      );
    }
    const scope = interactiveOnly ? " among interactive sessions (--include-non-interactive widens the search)" : "";
    throw new ThreadNotFoundError(`No session named '${target.sessionId}'${scope}. Give its id (\`codex-ts sessions --all\` lists them) or a name set with /rename.`);
  }
  if (!target.last) throw new ThreadNotFoundError(`Name the session to ${target.kind} (its id or name), or pass --last for the most recent one.`);
  return latestThread(req.codexHome, { cwd: target.all ? undefined : req.cwd, provider: req.modelProvider, interactiveOnly })?.path ?? null;
}

/**
 * Every request method of the reference's protocol (0.169), as its JSON Schema lists them, so a
 * method we do not serve can be told apart from one that does not exist: the first answers "not
 * supported", the second "unknown method". docs/app-server.md says which ones are served.
 */
export const REFERENCE_METHODS: ReadonlySet<string> = new Set([
  "initialize", "thread/start", "thread/resume", "thread/fork", "thread/archive", "thread/delete",
  "thread/unsubscribe", "thread/name/set", "thread/goal/set", "thread/goal/get", "thread/goal/clear",
  "thread/metadata/update", "thread/attachment/add", "thread/attachment/list", "thread/attachmentOwner/list",
  "thread/attachment/remove", "thread/section/move", "thread/unarchive", "thread/compact/start",
  "thread/shellCommand", "thread/approveGuardianDeniedAction", "thread/revert", "thread/list",
  "threadSection/list", "threadSection/create", "threadSection/update", "threadSection/delete",
  "thread/loaded/list", "thread/read", "thread/turns/list", "thread/items/list", "thread/inject_items",
  "skills/list", "skills/extraRoots/set", "hooks/list", "marketplace/add", "marketplace/remove",
  "marketplace/upgrade", "plugin/list", "plugin/installed", "plugin/reconcile", "plugin/read",
  "plugin/skill/read", "plugin/share/save", "plugin/share/updateTargets", "plugin/share/list",
  "plugin/share/checkout", "plugin/share/delete", "app/read", "app/list", "app/installed", "fs/readFile",
  "fs/writeFile", "fs/createDirectory", "fs/getMetadata", "fs/readDirectory", "fs/remove", "fs/copy",
  "fs/watch", "fs/unwatch", "skills/config/write", "plugin/install", "plugin/uninstall", "turn/start",
  "turn/steer", "turn/interrupt", "review/start", "model/list", "account/gatewayOAuth/read",
  "account/gatewayOAuth/login", "account/gatewayOAuth/cancel", "modelProvider/list",
  "modelProvider/config/write", "modelProvider/capabilities/read", "experimentalFeature/list",
  "permissionProfile/list", "experimentalFeature/enablement/set", "mcpServer/oauth/login",
  "config/mcpServer/reload", "mcpServerStatus/list", "mcpServer/resource/read", "mcpServer/tool/call",
  "windowsSandbox/setupStart", "windowsSandbox/readiness", "account/login/start", "account/login/cancel",
  "account/logout", "account/securitySetup/read", "account/rateLimits/read",
  "account/rateLimitResetCredit/consume", "account/usage/read", "account/workspaceMessages/read",
  "account/sendAddCreditsNudgeEmail", "feedback/upload", "feedback/save", "command/exec",
  "command/exec/write", "command/exec/terminate", "command/exec/resize", "config/read",
  "externalAgentConfig/detect", "externalAgentConfig/import", "externalAgentConfig/import/recordHistory",
  "externalAgentConfig/import/readHistories", "config/value/write", "config/batchWrite",
  "configRequirements/read", "account/read", "fuzzyFileSearch",
]);

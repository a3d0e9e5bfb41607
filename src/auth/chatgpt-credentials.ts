/**
 * A ChatGPT login as the model client uses it: the headers each request carries (the access
 * token as bearer, the account id as `chatgpt-account-id`), refreshed shortly before the token
 * expires and once more after a 401. Calls on one instance run one at a time, so the sessions of
 * a process never refresh the same login twice.
 */
import type { ChatgptLogin } from "./auth-file.js";
import { needsRefresh, refreshLogin, RefreshError } from "./refresh.js";

export class ChatGptCredentials {
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly codexHome: string,
    private readonly env: NodeJS.ProcessEnv,
    private login: ChatgptLogin,
    /** `originator` and `User-Agent`, sent on refreshes as on model requests. */
    private readonly clientHeaders: Record<string, string> = {},
  ) {}

  get accountId(): string | null {
    return this.login.tokens.account_id;
  }

  /** The headers for the next request, refreshing first when the token is about to expire. */
  headers(): Promise<Record<string, string>> {
    return this.serial(async () => {
      if (needsRefresh(this.login)) {
        try {
          this.login = await refreshLogin(this.codexHome, this.env, this.login, { force: false, reason: "proactive_expiry", clientHeaders: this.clientHeaders });
        } catch (err) {
          // A login that is gone for good stops here; a passing failure (network) lets the
          // request try the current token, as the reference does.
          if (err instanceof RefreshError && err.permanent) throw err;
        }
      }
      return this.current();
    });
  }

  /** After a 401: the login refreshed (or as another process refreshed it), for one more try. */
  afterUnauthorized(): Promise<Record<string, string>> {
    return this.serial(async () => {
      this.login = await refreshLogin(this.codexHome, this.env, this.login, { force: true, reason: "unauthorized_recovery", clientHeaders: this.clientHeaders });
      return this.current();
    });
  }

  private current(): Record<string, string> {
    const { access_token, account_id } = this.login.tokens;
    return { authorization: `Bearer ${access_token}`, ...(account_id ? { "chatgpt-account-id": account_id } : {}) };
  }

  private serial<T>(task: () => Promise<T>): Promise<T> {
    const run = this.queue.then(task, task);
    this.queue = run.catch(() => undefined);
    return run;
  }
}

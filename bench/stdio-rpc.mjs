/**
 * Shared by the protocol benchmarks (app-server, ACP): a line-delimited JSON-RPC client over a
 * child's stdio, and the child's resident memory. `jsonrpc: true` adds the `"jsonrpc": "2.0"`
 * member that ACP requires (the app-server protocol leaves it out). Requests the server sends
 * are answered by `answer(message)` when given.
 */
import { readFileSync } from "node:fs";

export class StdioRpc {
  constructor(child, { jsonrpc = false, answer = null } = {}) {
    this.child = child;
    this.jsonrpc = jsonrpc;
    this.nextId = 1;
    this.pending = new Map();
    this.waiters = [];
    let buf = "";
    child.stdout.on("data", (d) => {
      buf += d;
      for (let nl = buf.indexOf("\n"); nl >= 0; nl = buf.indexOf("\n")) {
        const line = buf.slice(0, nl);
        buf = buf.slice(nl + 1);
        if (!line.trim()) continue;
        const m = JSON.parse(line);
        if (m.id !== undefined && m.method === undefined) this.pending.get(m.id)?.(m);
        else if (m.id !== undefined && answer) this.send({ id: m.id, result: answer(m) });
        else {
          const waiter = this.waiters.find((w) => w.match(m));
          if (waiter) {
            this.waiters.splice(this.waiters.indexOf(waiter), 1);
            waiter.resolve(m);
          }
        }
      }
    });
  }
  send(message) {
    this.child.stdin.write(`${JSON.stringify(this.jsonrpc ? { jsonrpc: "2.0", ...message } : message)}\n`);
  }
  /** Resolves with the whole response (`result` or `error`). */
  request(method, params) {
    const id = this.nextId++;
    const reply = new Promise((resolve) => this.pending.set(id, resolve));
    this.send({ id, method, params });
    return reply;
  }
  notify(method, params) {
    this.send(params === undefined ? { method } : { method, params });
  }
  wait(method) {
    return new Promise((resolve) => this.waiters.push({ match: (m) => m.method === method, resolve }));
  }
  /** Closes stdin and waits for the child to exit (killed after five seconds). */
  async close() {
    this.child.stdin.end();
    await new Promise((resolve) => {
      const timer = setTimeout(() => this.child.kill("SIGKILL"), 5000);
      this.child.on("close", () => (clearTimeout(timer), resolve()));
    });
  }
}

/** A process's resident memory in MiB, from /proc/PID/status (NaN where there is none). */
export function rssMib(pid) {
  try {
    const kb = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
    return kb ? Number(kb) / 1024 : NaN;
  } catch {
    return NaN;
  }
}

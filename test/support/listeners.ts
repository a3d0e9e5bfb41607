/**
 * Listeners a sandboxed command must not reach when the network is off (and must reach when it
 * is on): TCP on 127.0.0.1 and ::1, UDP on 127.0.0.1, a named Unix stream socket outside every
 * writable root (a stand-in for the Docker socket, the user's D-Bus or $SSH_AUTH_SOCK), a named
 * Unix datagram socket there, and an abstract Unix socket.
 *
 * Whether a finished probe got through is settled without a fixed sleep: every listener is then
 * sent a control of its own and the listeners are polled (with a deadline) until each has seen
 * it. A listener takes connections and datagrams in the order they arrive, so once the control
 * is in, whatever the probe sent before it is in too.
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { createSocket } from "node:dgram";
import { connect, createServer, type Server, type Socket } from "node:net";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { waitFor } from "./sandbox-scene.js";

export interface Listeners {
  tcpPort: number;
  tcp6Port: number | null;
  udpPort: number;
  /** A named Unix stream socket in a folder outside every writable root. */
  unixPath: string;
  /** A named Unix datagram socket there (null without python3 to hold it). */
  dgramPath: string | null;
  /** An abstract Unix socket's name, without the leading NUL. */
  abstractName: string;
  /** Probe connections and datagrams seen so far (controls not counted). */
  seen: () => number;
  /** Resolves once everything sent before the call has been seen by its listener. */
  settle: () => Promise<void>;
  close: () => Promise<void>;
}

const SETTLE_DEADLINE_MS = 10_000;

/** A stream listener that counts connections and knows a control by its first byte. */
function streamListener(counts: { seen: number; controls: number }): Server {
  return createServer((socket: Socket) => {
    counts.seen++;
    socket.once("data", (data: Buffer) => {
      if (data.toString() === "C") counts.controls++;
      socket.destroy();
    });
    socket.on("error", () => socket.destroy());
  });
}

function listen(server: Server, where: { port: number; host: string } | { path: string }): Promise<boolean> {
  return new Promise((resolve) => {
    server.once("error", () => resolve(false));
    server.listen(where, () => resolve(true));
  });
}

const portOf = (server: Server): number => {
  const address = server.address();
  return typeof address === "object" && address !== null ? address.port : 0;
};

export async function startListeners(outsideDir: string, python: string | null): Promise<Listeners> {
  const tcp = { seen: 0, controls: 0 };
  const tcp6 = { seen: 0, controls: 0 };
  const unix = { seen: 0, controls: 0 };
  const abstract = { seen: 0, controls: 0 };
  const udp = { seen: 0, controls: 0 };
  const dgram = { seen: 0, controls: 0 };

  const tcpServer = streamListener(tcp);
  assert.ok(await listen(tcpServer, { port: 0, host: "127.0.0.1" }), "a TCP listener on 127.0.0.1");
  const tcp6Server = streamListener(tcp6);
  const hasTcp6 = await listen(tcp6Server, { port: 0, host: "::1" });
  const unixPath = join(outsideDir, "docker.sock");
  const unixServer = streamListener(unix);
  assert.ok(await listen(unixServer, { path: unixPath }), "a Unix socket outside the roots");
  const abstractName = `codex-ts-battery-${process.pid}`;
  const abstractServer = streamListener(abstract);
  assert.ok(await listen(abstractServer, { path: `\0${abstractName}` }), "an abstract Unix socket");
  const udpSocket = createSocket("udp4");
  udpSocket.on("message", (msg: Buffer) => (msg.toString() === "C" ? udp.controls++ : udp.seen++));
  const udpPort = await new Promise<number>((resolve) => udpSocket.bind(0, "127.0.0.1", () => resolve(udpSocket.address().port)));

  // Node cannot hold a Unix datagram socket: python3 does, and reports each datagram on a line.
  const dgramPath = python === null ? null : join(outsideDir, "journal.sock");
  const dgramHolder =
    dgramPath === null || python === null
      ? null
      : spawn(python, ["-c", "import socket,sys\ns=socket.socket(socket.AF_UNIX,socket.SOCK_DGRAM)\ns.bind(sys.argv[1])\nprint('ready',flush=True)\nwhile True:\n print(s.recv(64).decode(),flush=True)", dgramPath], {
          stdio: ["ignore", "pipe", "inherit"],
        });
  if (dgramHolder !== null) {
    let ready = false;
    createInterface({ input: dgramHolder.stdout as NodeJS.ReadableStream }).on("line", (line) => {
      if (line === "ready") ready = true;
      else if (line === "C") dgram.controls++;
      else dgram.seen++;
    });
    assert.ok(await waitFor(() => ready, SETTLE_DEADLINE_MS), "a Unix datagram socket outside the roots");
  }

  const streams: Array<[{ seen: number; controls: number }, () => Socket]> = [
    [tcp, () => connect(portOf(tcpServer), "127.0.0.1")],
    [unix, () => connect(unixPath)],
    [abstract, () => connect(`\0${abstractName}`)],
  ];
  if (hasTcp6) streams.push([tcp6, () => connect(portOf(tcp6Server), "::1")]);
  const all = [tcp, tcp6, unix, abstract, udp, dgram];
  // A control connection counts as a connection too; these are taken off again.
  let streamControls = 0;

  return {
    tcpPort: portOf(tcpServer),
    tcp6Port: hasTcp6 ? portOf(tcp6Server) : null,
    udpPort,
    unixPath,
    dgramPath,
    abstractName,
    seen: () => all.reduce((sum, c) => sum + c.seen, 0) - streamControls,
    settle: async () => {
      const expected = new Map(all.map((c) => [c, c.controls]));
      for (const [counts, open] of streams) {
        const socket = open();
        socket.on("error", () => socket.destroy());
        socket.end("C");
        expected.set(counts, (expected.get(counts) ?? 0) + 1);
        streamControls++;
      }
      udpSocket.send("C", udpPort, "127.0.0.1");
      expected.set(udp, udp.controls + 1);
      if (dgramPath !== null && python !== null) {
        spawn(python, ["-c", "import socket,sys\ns=socket.socket(socket.AF_UNIX,socket.SOCK_DGRAM)\ns.sendto(b'C',sys.argv[1])", dgramPath], { stdio: "ignore" });
        expected.set(dgram, dgram.controls + 1);
      }
      const settled = await waitFor(() => all.every((c) => c.controls >= (expected.get(c) ?? 0)), SETTLE_DEADLINE_MS);
      assert.ok(settled, "every listener received its control");
    },
    close: async () => {
      dgramHolder?.kill("SIGKILL");
      for (const server of [tcpServer, unixServer, abstractServer, ...(hasTcp6 ? [tcp6Server] : [])]) await new Promise<void>((r) => server.close(() => r()));
      await new Promise<void>((r) => udpSocket.close(() => r()));
    },
  };
}

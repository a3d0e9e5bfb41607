/**
 * A small OTLP collector for the tests: it accepts log and metric exports over OTLP/HTTP
 * (protobuf or JSON) and OTLP/gRPC, decodes the log records (a minimal protobuf reader: the
 * OTLP messages are plain nested fields) and keeps them with the headers that came along. It
 * can also refuse every export or never answer, to play a collector that is down or stuck.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import * as grpc from "@grpc/grpc-js";
import { readRequestBody } from "./http-util.js";

export type AttributeValue = string | number | boolean;

export interface ReceivedRecord {
  eventName: string;
  attributes: Record<string, AttributeValue>;
  resource: Record<string, AttributeValue>;
}

export interface OtlpReceiver {
  /** `http://127.0.0.1:PORT/v1/logs` for OTLP/HTTP, `http://127.0.0.1:PORT` for gRPC. */
  endpoint: string;
  records: ReceivedRecord[];
  /** Headers (HTTP) or metadata (gRPC) of each log export. */
  headers: Array<Record<string, string>>;
  /** How many metric exports arrived. */
  metricExports: number;
  contentTypes: string[];
  close(): Promise<void>;
}

export type ReceiverMode = "accept" | "refuse" | "hang";

// ---- protobuf (just what OTLP logs need) ------------------------------------------------------

interface Field {
  no: number;
  wire: number;
  bytes?: Buffer;
  varint?: bigint;
  fixed?: Buffer;
}

function* protoFields(buf: Buffer): Generator<Field> {
  let pos = 0;
  const varint = (): bigint => {
    let result = 0n;
    let shift = 0n;
    for (;;) {
      const byte = buf[pos++] ?? 0;
      result |= BigInt(byte & 0x7f) << shift;
      if ((byte & 0x80) === 0) return result;
      shift += 7n;
    }
  };
  while (pos < buf.length) {
    const key = Number(varint());
    const no = key >> 3;
    const wire = key & 7;
    if (wire === 0) yield { no, wire, varint: varint() };
    else if (wire === 1) yield { no, wire, fixed: buf.subarray(pos, (pos += 8)) };
    else if (wire === 5) yield { no, wire, fixed: buf.subarray(pos, (pos += 4)) };
    else if (wire === 2) {
      const len = Number(varint());
      yield { no, wire, bytes: buf.subarray(pos, (pos += len)) };
    } else throw new Error(`unsupported protobuf wire type ${wire}`);
  }
}

function anyValue(buf: Buffer): AttributeValue {
  for (const f of protoFields(buf)) {
    if (f.no === 1 && f.bytes) return f.bytes.toString("utf8");
    if (f.no === 2 && f.varint !== undefined) return f.varint !== 0n;
    if (f.no === 3 && f.varint !== undefined) return Number(BigInt.asIntN(64, f.varint));
    if (f.no === 4 && f.fixed) return f.fixed.readDoubleLE(0);
  }
  return "";
}

function keyValues(list: Buffer[]): Record<string, AttributeValue> {
  const out: Record<string, AttributeValue> = {};
  for (const kv of list) {
    let key = "";
    let value: AttributeValue = "";
    for (const f of protoFields(kv)) {
      if (f.no === 1 && f.bytes) key = f.bytes.toString("utf8");
      if (f.no === 2 && f.bytes) value = anyValue(f.bytes);
    }
    out[key] = value;
  }
  return out;
}

const children = (buf: Buffer, no: number): Buffer[] => [...protoFields(buf)].filter((f) => f.no === no && f.bytes).map((f) => f.bytes as Buffer);

export function decodeProtobufLogs(buf: Buffer): ReceivedRecord[] {
  const records: ReceivedRecord[] = [];
  for (const resourceLogs of children(buf, 1)) {
    const resource = keyValues(children(children(resourceLogs, 1)[0] ?? Buffer.alloc(0), 1));
    for (const scopeLogs of children(resourceLogs, 2)) {
      for (const record of children(scopeLogs, 2)) {
        const eventName = children(record, 12)[0]?.toString("utf8") ?? "";
        records.push({ eventName, attributes: keyValues(children(record, 6)), resource });
      }
    }
  }
  return records;
}

// ---- JSON -----------------------------------------------------------------------------------------

interface JsonKeyValue {
  key: string;
  value: { stringValue?: string; boolValue?: boolean; intValue?: string | number; doubleValue?: number };
}

function jsonAttributes(list: JsonKeyValue[] | undefined): Record<string, AttributeValue> {
  const out: Record<string, AttributeValue> = {};
  for (const { key, value } of list ?? []) {
    out[key] = value.stringValue ?? value.boolValue ?? (value.intValue !== undefined ? Number(value.intValue) : undefined) ?? value.doubleValue ?? "";
  }
  return out;
}

export function decodeJsonLogs(text: string): ReceivedRecord[] {
  const body = JSON.parse(text) as {
    resourceLogs?: Array<{
      resource?: { attributes?: JsonKeyValue[] };
      scopeLogs?: Array<{ logRecords?: Array<{ eventName?: string; attributes?: JsonKeyValue[] }> }>;
    }>;
  };
  const records: ReceivedRecord[] = [];
  for (const rl of body.resourceLogs ?? []) {
    const resource = jsonAttributes(rl.resource?.attributes);
    for (const sl of rl.scopeLogs ?? []) {
      for (const lr of sl.logRecords ?? []) records.push({ eventName: lr.eventName ?? "", attributes: jsonAttributes(lr.attributes), resource });
    }
  }
  return records;
}

// ---- servers ---------------------------------------------------------------------------------------

export async function startHttpReceiver(mode: ReceiverMode = "accept"): Promise<OtlpReceiver> {
  const state = { records: [] as ReceivedRecord[], headers: [] as Array<Record<string, string>>, metricExports: 0, contentTypes: [] as string[] };
  const server: Server = createServer((req, res) => {
    void readRequestBody(req).then((body) => {
      if (mode === "hang") return; // never answers
      if (mode === "refuse") {
        res.writeHead(503).end();
        return;
      }
      const type = String(req.headers["content-type"] ?? "");
      if (req.url === "/v1/metrics") state.metricExports += 1;
      else {
        state.contentTypes.push(type);
        state.headers.push(Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)])));
        state.records.push(...(type.includes("json") ? decodeJsonLogs(body.toString("utf8")) : decodeProtobufLogs(body)));
      }
      res.writeHead(200, { "content-type": type.includes("json") ? "application/json" : "application/x-protobuf" });
      res.end(type.includes("json") ? "{}" : "");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    endpoint: `http://127.0.0.1:${port}/v1/logs`,
    get records() {
      return state.records;
    },
    get headers() {
      return state.headers;
    },
    get metricExports() {
      return state.metricExports;
    },
    get contentTypes() {
      return state.contentTypes;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export async function startGrpcReceiver(): Promise<OtlpReceiver> {
  const state = { records: [] as ReceivedRecord[], headers: [] as Array<Record<string, string>>, metricExports: 0 };
  const raw = { serialize: (b: Buffer): Buffer => b, deserialize: (b: Buffer): Buffer => b };
  const method = (path: string): grpc.MethodDefinition<Buffer, Buffer> => ({
    path,
    requestStream: false,
    responseStream: false,
    requestSerialize: raw.serialize,
    requestDeserialize: raw.deserialize,
    responseSerialize: raw.serialize,
    responseDeserialize: raw.deserialize,
  });
  const server = new grpc.Server();
  server.addService(
    { Export: method("/opentelemetry.proto.collector.logs.v1.LogsService/Export") },
    {
      Export: (call: grpc.ServerUnaryCall<Buffer, Buffer>, done: grpc.sendUnaryData<Buffer>) => {
        state.headers.push(Object.fromEntries(Object.entries(call.metadata.getMap()).map(([k, v]) => [k, String(v)])));
        state.records.push(...decodeProtobufLogs(call.request));
        done(null, Buffer.alloc(0));
      },
    },
  );
  server.addService(
    { Export: method("/opentelemetry.proto.collector.metrics.v1.MetricsService/Export") },
    {
      Export: (_call: grpc.ServerUnaryCall<Buffer, Buffer>, done: grpc.sendUnaryData<Buffer>) => {
        state.metricExports += 1;
        done(null, Buffer.alloc(0));
      },
    },
  );
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (err, p) => (err ? reject(err) : resolve(p))),
  );
  return {
    endpoint: `http://127.0.0.1:${port}`,
    get records() {
      return state.records;
    },
    get headers() {
      return state.headers;
    },
    get metricExports() {
      return state.metricExports;
    },
    contentTypes: [],
    close: () => new Promise<void>((resolve) => server.tryShutdown(() => resolve())),
  };
}

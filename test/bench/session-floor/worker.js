// Session floor (see floor.mjs): the least a Worker can do to answer through a Durable Object. The
// session run (../session.mjs) measures its POST /mcp: answered by the Worker itself, or, with
// `x-floor-hop: fetch`, by one object reached with stub.fetch, as edge-mcp's session gateway does.
import { DurableObject } from "cloudflare:workers";

const ANSWER = '{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"5"}],"structuredContent":{"sum":5}}}';
const JSON_HEADERS = { "content-type": "application/json" };
let objectId; // one object, reached by id string as a session is

/** The demo's answer to tools/call add(2, 3), with the request's id (session.mjs holds it byte for byte). */
const answerTo = (text) =>
  `{"jsonrpc":"2.0","id":${JSON.stringify(JSON.parse(text).id)},"result":{"content":[{"type":"text","text":"The sum of 2 and 3 is 5"}],"structuredContent":{"sum":5}}}`;

export class Floor extends DurableObject {
  async fetch(request) {
    const text = await request.text();
    if (new URL(request.url).pathname === "/mcp") return new Response(answerTo(text), { headers: JSON_HEADERS });
    JSON.parse(text);
    return new Response(ANSWER, { headers: JSON_HEADERS });
  }
  answer(text) {
    JSON.parse(text);
    return ANSWER;
  }
  answerObject(call) {
    JSON.parse(call.body);
    return { status: 200, body: ANSWER };
  }
  respond(call) {
    JSON.parse(call.body);
    return new Response(ANSWER, { headers: JSON_HEADERS });
  }
  async open(text) {
    JSON.parse(text);
    const storage = this.ctx.storage;
    await storage.get("session");
    await storage.put("session", { idHash: "0".repeat(64), tenant: "default", createdAt: Date.now(), lastSeen: Date.now() });
    await storage.setAlarm(Date.now() + 30 * 60_000);
    return ANSWER;
  }
  async close() {
    await this.ctx.storage.deleteAlarm();
    await this.ctx.storage.deleteAll();
  }
  alarm() {}
  async answerStored(text) {
    JSON.parse(text);
    await this.ctx.storage.get("session");
    return ANSWER;
  }
}

export default {
  async fetch(request, env) {
    const path = new URL(request.url).pathname;
    const text = await request.text();
    if (path === "/mcp") {
      if (request.headers.get("x-floor-hop") !== "fetch") return new Response(answerTo(text), { headers: JSON_HEADERS });
      objectId ??= env.FLOOR.newUniqueId().toString();
      const stub = env.FLOOR.get(env.FLOOR.idFromString(objectId));
      return stub.fetch(request.url, { method: "POST", headers: { "content-type": "application/json", "x-admission": '{"tenant":"default"}' }, body: text });
    }
    if (path === "/direct") {
      JSON.parse(text);
      return new Response(ANSWER, { headers: JSON_HEADERS });
    }
    if (path === "/open-bare" || path === "/open") {
      const id = env.FLOOR.newUniqueId();
      const stub = env.FLOOR.get(id);
      const answer = path === "/open" ? await stub.open(text) : await stub.answer(text);
      return new Response(answer, { headers: { ...JSON_HEADERS, "x-id": id.toString() } });
    }
    if (path === "/close") {
      await env.FLOOR.get(env.FLOOR.idFromString(request.headers.get("x-id"))).close();
      return new Response(ANSWER, { headers: JSON_HEADERS });
    }
    objectId ??= env.FLOOR.newUniqueId().toString();
    const stub = env.FLOOR.get(env.FLOOR.idFromString(objectId));
    if (path === "/fetch") {
      return stub.fetch(request.url, { method: "POST", headers: { "content-type": "application/json", "x-admission": '{"tenant":"default"}' }, body: text });
    }
    if (path === "/rpc") return new Response(await stub.answer(text), { headers: JSON_HEADERS });
    if (path === "/rpc-object") {
      const out = await stub.answerObject({ body: text, admission: { tenant: "default", caller: '["default",null]', limits: {}, quotas: {} } });
      return new Response(out.body, { status: out.status, headers: JSON_HEADERS });
    }
    if (path === "/rpc-response") {
      return stub.respond({ body: text, admission: { tenant: "default", caller: '["default",null]', limits: {}, quotas: {} } });
    }
    if (path === "/rpc-stored") return new Response(await stub.answerStored(text), { headers: JSON_HEADERS });
    return new Response("not found", { status: 404 });
  },
};

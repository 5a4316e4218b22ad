// Usage: node main.mjs IMPLEMENTATION burst COUNT | IMPLEMENTATION threads THREADS COUNT
// Prints "version V", "start US", one "id THREAD HEX" per id in the order each thread made them, "end US".
// Threads are worker_threads; each makes COUNT ids after all have started.
import crypto from "node:crypto";
import { createRequire } from "node:module";
import { Worker, isMainThread, parentPort, workerData } from "node:worker_threads";
import { v7 } from "uuid";

const require = createRequire(import.meta.url);

const generators = {
  "uuid": v7,
  "crypto.randomUUIDv7": crypto.randomUUIDv7 ? () => crypto.randomUUIDv7() : null,
};

function versionOf(name) {
  if (name === "uuid") return require("uuid/package.json").version;
  return `node ${process.versions.node}`;
}

// Date.now() is milliseconds; performance.timeOrigin + now() gives microseconds of the same wall clock
function nowUs() {
  return Math.floor((performance.timeOrigin + performance.now()) * 1000);
}

function burst(name, count) {
  const generate = generators[name];
  const ids = new Array(count);
  for (let i = 0; i < count; i++) ids[i] = generate();
  return ids;
}

if (!isMainThread) {
  const shared = new Int32Array(workerData.barrier);
  Atomics.add(shared, 0, 1);
  while (Atomics.load(shared, 0) < workerData.threads) { /* spin until every worker is ready */ }
  parentPort.postMessage(burst(workerData.name, workerData.count));
} else {
  const [name, mode, ...rest] = process.argv.slice(2);
  if (!(name in generators)) { console.error(`unknown implementation ${name}`); process.exit(2); }
  if (generators[name] === null) {
    console.log(`unavailable node ${process.versions.node} has no crypto.randomUUIDv7`);
    process.exit(0);
  }
  const out = [`version ${versionOf(name)}`, `toolchain node ${process.versions.node}`];
  if (mode === "burst") {
    const count = Number(rest[0]);
    const start = nowUs();
    const ids = burst(name, count);
    const end = nowUs();
    out.push(`start ${start}`);
    for (const id of ids) out.push(`id 0 ${id}`);
    out.push(`end ${end}`);
    process.stdout.write(out.join("\n") + "\n");
  } else {
    const threads = Number(rest[0]);
    const count = Number(rest[1]);
    const barrier = new SharedArrayBuffer(4);
    const start = nowUs();
    const results = await Promise.all(Array.from({ length: threads }, () => new Promise((resolve, reject) => {
      const worker = new Worker(new URL(import.meta.url), { workerData: { name, count, threads, barrier } });
      worker.on("message", resolve);
      worker.on("error", reject);
    })));
    const end = nowUs();
    out.push(`start ${start}`);
    results.forEach((ids, thread) => { for (const id of ids) out.push(`id ${thread} ${id}`); });
    out.push(`end ${end}`);
    process.stdout.write(out.join("\n") + "\n");
  }
}

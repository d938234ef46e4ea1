// Where a V8 heap snapshot's memory is: `node bench/heap-summary.mjs before.heapsnapshot [after.heapsnapshot]`.
// Prints the self sizes summed by kind and constructor (and their growth from the first snapshot to the second),
// and the largest single objects with a path of retainers back to a GC root, so that what keeps them alive is named
// (TOP groups, PATHS objects; GROUP=<a group as listed> for that group's objects only).
// Take snapshots of the server with `BENCH_NODE_ARGS="--max-semi-space-size=1 --heapsnapshot-signal=SIGUSR2"` and
// `kill -USR2 <pid>` (they land in the server's working directory), or Chrome DevTools.
import { readFileSync } from "node:fs";

const TOP = Number(process.env.TOP ?? 25);

/** Parse a snapshot into flat arrays: node kinds, names, self sizes, and each node's first edge and retainers. */
function load(path) {
  const { snapshot, nodes, edges, strings } = JSON.parse(readFileSync(path, "utf8"));
  const { node_fields, node_types, edge_fields, edge_types } = snapshot.meta;
  const nf = node_fields.length;
  const ef = edge_fields.length;
  const count = nodes.length / nf;
  const at = (field) => node_fields.indexOf(field);
  const [TYPE, NAME, SIZE, EDGES] = [at("type"), at("name"), at("self_size"), at("edge_count")];
  const [ETYPE, ENAME, ETO] = ["type", "name_or_index", "to_node"].map((f) => edge_fields.indexOf(f));
  const nodeTypes = node_types[0];
  const edgeTypes = edge_types[0];
  const firstEdge = new Uint32Array(count + 1);
  for (let i = 0; i < count; i++) firstEdge[i + 1] = firstEdge[i] + nodes[i * nf + EDGES];
  // One retainer per node (the first strong one seen breadth-first from the root): enough to name a path.
  const parent = new Int32Array(count).fill(-1);
  const parentEdge = new Int32Array(count).fill(-1);
  const seen = new Uint8Array(count);
  const queue = [0];
  seen[0] = 1;
  for (let q = 0; q < queue.length; q++) {
    const n = queue[q];
    for (let e = firstEdge[n]; e < firstEdge[n + 1]; e++) {
      const type = edgeTypes[edges[e * ef + ETYPE]];
      if (type === "weak" || type === "shortcut") continue;
      const to = edges[e * ef + ETO] / nf;
      if (seen[to]) continue;
      seen[to] = 1;
      parent[to] = n;
      parentEdge[to] = e;
      queue.push(to);
    }
  }
  const kind = (n) => nodeTypes[nodes[n * nf + TYPE]];
  const name = (n) => strings[nodes[n * nf + NAME]];
  const size = (n) => nodes[n * nf + SIZE];
  const edgeName = (e) => {
    const type = edgeTypes[edges[e * ef + ETYPE]];
    const value = edges[e * ef + ENAME];
    return type === "element" || type === "hidden" ? `[${value}]` : String(strings[value]);
  };
  const label = (n) => {
    const k = kind(n);
    if (k === "string" || k === "concatenated string" || k === "sliced string")
      return `${k} ${JSON.stringify(name(n).slice(0, 40))}`;
    return `${k} ${name(n).slice(0, 60)}`;
  };
  return { count, kind, name, size, parent, parentEdge, edgeName, label, reachable: seen };
}

/** The key nodes are grouped by: their kind, and for objects and closures their constructor or function name. */
function groupOf(snap, n) {
  const kind = snap.kind(n);
  if (kind === "object" || kind === "closure" || kind === "native") return `${kind} ${snap.name(n)}`;
  if (kind === "hidden" || kind === "code" || kind === "array" || kind === "object shape")
    return `${kind} ${snap.name(n).replace(/\d+/g, "#").slice(0, 50)}`;
  return kind;
}

function totals(snap) {
  const byGroup = new Map();
  let total = 0;
  for (let n = 0; n < snap.count; n++) {
    if (!snap.reachable[n]) continue;
    const size = snap.size(n);
    total += size;
    const group = groupOf(snap, n);
    const entry = byGroup.get(group) ?? { size: 0, count: 0 };
    entry.size += size;
    entry.count += 1;
    byGroup.set(group, entry);
  }
  return { total, byGroup };
}

function pathOf(snap, n) {
  const steps = [];
  for (let at = n; snap.parent[at] > 0 && steps.length < 12; at = snap.parent[at]) {
    steps.push(`${snap.label(snap.parent[at])} .${snap.edgeName(snap.parentEdge[at])}`);
  }
  return steps.reverse().join("\n      → ");
}

const mb = (bytes) => `${(bytes / 1024 / 1024).toFixed(2)} MB`;
const [first, second] = process.argv.slice(2);
if (!first) {
  console.error("usage: node bench/heap-summary.mjs before.heapsnapshot [after.heapsnapshot]");
  process.exit(2);
}
const a = load(first);
const ta = totals(a);
const b = second ? load(second) : undefined;
const tb = b && totals(b);
console.log(`reachable self sizes: ${mb(ta.total)}${tb ? ` → ${mb(tb.total)}` : ""}`);
const groups = new Set([...ta.byGroup.keys(), ...(tb?.byGroup.keys() ?? [])]);
const rows = [...groups].map((group) => {
  const before = ta.byGroup.get(group) ?? { size: 0, count: 0 };
  const after = tb?.byGroup.get(group) ?? before;
  return { group, before, after, grew: after.size - before.size };
});
rows.sort((x, y) => (tb ? y.grew - x.grew : y.before.size - x.before.size));
console.log(tb ? "\nlargest growth by kind / constructor:" : "\nlargest by kind / constructor:");
for (const row of rows.slice(0, TOP)) {
  const sizes = tb
    ? `${mb(row.before.size)} → ${mb(row.after.size)} (${row.grew >= 0 ? "+" : ""}${mb(row.grew)}), ${row.before.count} → ${row.after.count}`
    : `${mb(row.before.size)}, ${row.before.count}`;
  console.log(`  ${row.group.padEnd(48)} ${sizes}`);
}
const last = b ?? a;
const largest = [];
// GROUP=<kind / constructor, as listed above> shows the paths of that group's largest objects only.
const only = process.env.GROUP;
for (let n = 0; n < last.count; n++)
  if (last.reachable[n] && (only === undefined || groupOf(last, n) === only)) largest.push(n);
largest.sort((x, y) => last.size(y) - last.size(x));
console.log(`\nlargest objects${b ? " (second snapshot)" : ""}, with a path from the root:`);
for (const n of largest.slice(0, Number(process.env.PATHS ?? 10))) {
  console.log(`  ${mb(last.size(n))} ${last.label(n)}\n      ← ${pathOf(last, n)}`);
}

// The console playground: runs /v1/search, /v1/graph and /v1/verify with the visitor's key,
// lists results with their fingerprints and a Verify button each, and draws /v1/graph's
// answer as nodes and hops (SVG). Builds the page with DOM calls only (no HTML strings).
"use strict";

const $ = (id) => document.getElementById(id);
const SVG = "http://www.w3.org/2000/svg";

function element(tag, attributes = {}, text) {
  const node = tag.startsWith("svg:") ? document.createElementNS(SVG, tag.slice(4)) : document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  if (text !== undefined) node.textContent = text;
  return node;
}

async function call(method, path, body) {
  const headers = { "x-api-key": $("pg-key").value.trim() };
  if (body) headers["content-type"] = "application/json";
  const response = await fetch(path, { method, headers, body: body && JSON.stringify(body) });
  const json = await response.json();
  if (!response.ok) throw new Error(`${response.status} ${json.errorCode || ""} ${json.msg}${json.detail ? ": " + json.detail : ""}`);
  return json.data;
}

async function verify(fingerprint, outcome) {
  outcome.className = "";
  outcome.textContent = "verifying…";
  try {
    const data = await call("GET", `/v1/verify/${fingerprint}`);
    const ok = data.verified === true;
    outcome.className = ok ? "verified" : "unverified";
    outcome.textContent = ok ? "✓ verified: the official text matches this fingerprint" : `✗ not verified: ${data.message || data.detail}`;
  } catch (error) {
    outcome.className = "unverified";
    outcome.textContent = error.message;
  }
}

function segmentItem(segment, title) {
  const item = element("li", { class: "result" });
  item.append(element("div", { class: "meta" }, title));
  item.append(element("p", {}, segment.text));
  item.append(element("code", { class: "fingerprint", title: "fingerprint" }, segment.fingerprint));
  const button = element("button", { type: "button", class: "verify" }, "Verify");
  const outcome = element("span", { role: "status" });
  button.addEventListener("click", () => verify(segment.fingerprint, outcome));
  item.append(button, " ", outcome);
  return item;
}

function drawGraph(data) {
  const names = new Map();
  const edges = [];
  const drugs = new Set(data.relationships.map((r) => r.drug));
  const seen = new Set();
  for (const path of data.paths) {
    for (const hop of path.hops) {
      names.set(hop.from, true);
      names.set(hop.to, true);
      const id = `${hop.from}|${hop.type}|${hop.to}`;
      if (!seen.has(id)) edges.push(hop);
      seen.add(id);
    }
  }
  const nodes = [...names.keys()].slice(0, 24);
  const width = 720, height = 360, cx = width / 2, cy = height / 2, radius = Math.min(cx, cy) - 48;
  const at = new Map(nodes.map((name, i) => {
    const angle = (2 * Math.PI * i) / Math.max(nodes.length, 1) - Math.PI / 2;
    return [name, [cx + radius * Math.cos(angle), cy + radius * Math.sin(angle)]];
  }));
  const svg = element("svg:svg", { viewBox: `0 0 ${width} ${height}`, width: "100%", role: "img", "aria-labelledby": "graph-title" });
  svg.append(element("svg:title", { id: "graph-title" }, `Graph answer: ${nodes.length} nodes, ${edges.length} hops`));
  for (const hop of edges) {
    if (!at.has(hop.from) || !at.has(hop.to)) continue;
    const [x1, y1] = at.get(hop.from), [x2, y2] = at.get(hop.to);
    const group = element("svg:g", { class: "edge" });
    group.append(element("svg:line", { x1, y1, x2, y2 }));
    group.append(element("svg:text", { x: (x1 + x2) / 2, y: (y1 + y2) / 2 - 4, "text-anchor": "middle" }, hop.type.replace("_", " ")));
    svg.append(group);
  }
  for (const name of nodes) {
    const [x, y] = at.get(name);
    const group = element("svg:g", { class: drugs.has(name) ? "node drug" : "node" });
    group.append(element("svg:circle", { cx: x, cy: y, r: 9 }));
    group.append(element("svg:text", { x, y: y + 24, "text-anchor": "middle" }, name));
    svg.append(group);
  }
  $("pg-graph").replaceChildren(svg);
}

async function run(event) {
  event.preventDefault();
  const endpoint = $("pg-endpoint").value;
  const input = $("pg-input").value.trim();
  const results = $("pg-results");
  results.replaceChildren();
  $("pg-graph").replaceChildren();
  $("pg-status").textContent = "running…";
  try {
    if (endpoint === "search") {
      const data = await call("POST", "/v1/search", { question: input, top_k: 5 });
      for (const r of data.results) results.append(segmentItem(r, `${r.drug.name} · ${r.section}`));
      $("pg-status").textContent = `${data.results.length} results`;
    } else if (endpoint === "graph") {
      const data = await call("POST", "/v1/graph", { question: input, max_hops: 2, limit: 10 });
      drawGraph(data);
      for (const rel of data.relationships) {
        for (const evidence of rel.evidence.slice(0, 1)) {
          results.append(segmentItem(evidence, `${rel.drug} —${rel.type.replace("_", " ")}→ ${rel.target} · ${evidence.section}`));
        }
      }
      $("pg-status").textContent = `${data.relationships.length} relationships, ${data.paths.length} paths`;
    } else {
      const outcome = element("span", { role: "status" });
      results.append(element("li", {}, input), outcome);
      await verify(input, outcome);
      $("pg-status").textContent = "done";
    }
  } catch (error) {
    $("pg-status").textContent = error.message;
  }
}

$("playground").addEventListener("submit", run);

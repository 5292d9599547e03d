// The console playground: runs /v1/search, /v1/graph and /v1/verify with the visitor's key and
// shows each answer as the API gives it: the verdict, relationships with severity and
// instruction, every citation with its official text, fingerprint, DailyMed link and a Verify
// button, the graph's fallback search evidence, a drawing (graph-view.js), the raw JSON.
// Builds the page with DOM calls only (no HTML strings).
"use strict";

const $ = (id) => document.getElementById(id);

function element(tag, attributes = {}, text) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  if (text !== undefined) node.textContent = text;
  return node;
}

const words = (value) => (value || "").replaceAll("_", " ");

const VERDICTS = {
  contraindicated: "Contraindicated: the label says not to combine them.",
  avoid: "Avoid: the label advises against the combination.",
  use_with_caution: "Use with caution: the label asks for a dose change or monitoring.",
  interaction_stated: "An interaction is stated.",
  warning: "A warning is stated.",
  adverse_reaction: "Listed as an adverse reaction.",
  indicated: "Indicated: the label lists it as a use.",
  no_interaction_stated: "No interaction between them is stated in the labels.",
  not_stated: "The labels state no such relationship.",
};

class ApiError extends Error {}

// Calls the API; returns the parsed JSON envelope or throws ApiError with status and message.
async function call(method, path, body) {
  const headers = { "x-api-key": $("pg-key").value.trim() };
  if (body) headers["content-type"] = "application/json";
  const response = await fetch(path, { method, headers, body: body && JSON.stringify(body) });
  let json = {};
  try { json = await response.json(); } catch (error) { json = { msg: response.statusText }; }
  showRaw(json);
  if (!response.ok) {
    throw new ApiError(`${response.status} ${json.errorCode || ""}: ${json.msg || ""}${json.detail ? ": " + json.detail : ""}`);
  }
  return json;
}

function showRaw(json) {
  $("pg-json").textContent = JSON.stringify(json, null, 2);
}

function dailymedLink(url) {
  return url ? element("a", { href: url, rel: "noopener noreferrer", target: "_blank" }, "Label on DailyMed ↗") : null;
}

// What /v1/verify says about a fingerprint, into `outcome`.
async function verify(fingerprint, outcome) {
  outcome.className = "outcome";
  outcome.textContent = "verifying…";
  try {
    const data = (await call("GET", `/v1/verify/${encodeURIComponent(fingerprint)}`)).data;
    outcome.replaceChildren();
    if (data.detail) {
      outcome.className = "outcome unverified";
      outcome.textContent = "✗ not found: no label segment has this fingerprint.";
    } else if (data.verified) {
      outcome.className = "outcome verified";
      outcome.append(element("strong", {}, "✓ verified: this is the official label text"));
      const label = data.label || {};
      const standing = label.status === "superseded" ? ` (superseded: the current version ${label.current_version} no longer says it)` : "";
      outcome.append(element("p", { class: "meta" }, `${data.drug ? data.drug.name + " · " : ""}${data.section || ""} · version ${label.version || "?"} of ${label.effective_time || "?"}${standing}`));
      outcome.append(element("blockquote", {}, data.text));
      const link = dailymedLink(data.source && data.source.url);
      if (link) outcome.append(link);
    } else {
      outcome.className = "outcome unverified";
      outcome.textContent = `✗ not verified: ${data.message || "no match"}`;
    }
    return true;
  } catch (error) {
    outcome.className = "outcome unverified";
    outcome.textContent = `✗ ${error.message}`;
    return false;
  }
}

// One quoted label segment: its text, where it is from, fingerprint, DailyMed link, Verify.
function citation(segment, heading) {
  const item = element("article", { class: "citation" });
  if (heading) item.append(element("p", { class: "meta" }, heading));
  item.append(element("blockquote", {}, segment.text));
  item.append(element("code", { class: "fingerprint", title: "fingerprint" }, segment.fingerprint));
  const actions = element("div", { class: "actions" });
  const button = element("button", { type: "button", class: "verify" }, "Verify");
  const outcome = element("div", { class: "outcome", role: "status" });
  button.addEventListener("click", () => verify(segment.fingerprint, outcome));
  actions.append(button);
  const link = dailymedLink(segment.source && segment.source.url);
  if (link) actions.append(link);
  item.append(actions, outcome);
  return item;
}

function showSearch(data) {
  const list = element("ol", { class: "results" });
  for (const r of data.results) {
    const item = element("li");
    item.append(citation(r, `${r.drug.name} · ${r.section}`));
    list.append(item);
  }
  $("pg-results").replaceChildren(list);
  return `${data.results.length} results`;
}

function relationshipTable(data) {
  const table = element("table", { class: "stack relationships" });
  const head = element("tr");
  for (const name of ["Drug", "Relationship", "Target", "Severity", "Instruction", "Stated in"]) head.append(element("th", { scope: "col" }, name));
  table.append(element("thead"), element("tbody"));
  table.tHead.append(head);
  data.relationships.forEach((rel, i) => {
    const row = element("tr");
    const cells = [rel.drug, words(rel.type), `${rel.target}${rel.target_kind === "drug_class" ? " (class)" : ""}`,
      words(rel.severity) || "—", words(rel.instruction) || "—", `${rel.evidence_count} text${rel.evidence_count === 1 ? "" : "s"}`];
    const labels = ["Drug", "Relationship", "Target", "Severity", "Instruction", "Stated in"];
    cells.forEach((text, c) => {
      const cell = element("td", { "data-label": labels[c] });
      if (c === 5) cell.append(element("a", { href: `#rel-${i}` }, text)); else cell.textContent = text;
      row.append(cell);
    });
    table.tBodies[0].append(row);
  });
  return table;
}

function showGraph(data) {
  const summary = $("pg-summary");
  summary.replaceChildren();
  if (data.verdict) {
    const box = element("div", { class: `verdict ${data.verdict}`, id: "pg-verdict" });
    box.append(element("strong", {}, `Verdict: ${words(data.verdict)}`), element("p", {}, VERDICTS[data.verdict] || ""));
    summary.append(box);
  }
  const results = $("pg-results");
  results.replaceChildren();
  if (data.relationships.length === 0) {
    const fallback = data.fallback || { reason: "The graph holds no relationship for this question.", segments: [] };
    const box = element("div", { class: "fallback", id: "pg-fallback" });
    box.append(element("h2", {}, "No relationship in the graph"), element("p", {}, fallback.reason));
    if (fallback.segments.length) box.append(element("p", { class: "hint" }, "The best search passages instead (search evidence, not relationships the graph states):"));
    summary.append(box);
    const list = element("ol", { class: "results" });
    for (const s of fallback.segments) {
      const item = element("li");
      item.append(citation(s, `${s.drug.name} · ${s.section}`));
      list.append(item);
    }
    results.append(list);
    return `no relationship; ${fallback.segments.length} search passages`;
  }
  results.append(element("h2", {}, "Relationships"), relationshipTable(data));
  data.relationships.forEach((rel, i) => {
    const section = element("section", { class: "relationship", id: `rel-${i}`, "aria-label": `${rel.drug} ${words(rel.type)} ${rel.target}` });
    section.append(element("h3", {}, `${rel.drug} — ${words(rel.type)} → ${rel.target}`));
    const facts = [rel.severity && `severity ${words(rel.severity)}`, rel.instruction && `instruction: ${words(rel.instruction)}`,
      `stated in ${rel.evidence_count} distinct text${rel.evidence_count === 1 ? "" : "s"}`].filter(Boolean).join(" · ");
    section.append(element("p", { class: "meta" }, facts));
    for (const evidence of rel.evidence) section.append(citation(evidence, evidence.section));
    results.append(section);
  });
  const { edges } = window.drugciteGraph.elements(data);
  if (edges.length >= 2 && window.cytoscape) {
    $("pg-graph-wrap").hidden = false;
    const drawn = window.drugciteGraph.draw($("pg-graph"), data);
    const legend = $("pg-legend");
    legend.replaceChildren();
    for (const type of drawn.types) {
      const swatch = element("span", { class: "swatch", "aria-hidden": "true" });
      swatch.style.backgroundColor = drawn.colour(type);
      const item = element("li");
      item.append(swatch, words(type));
      legend.append(item);
    }
    $("pg-graph-desc").textContent = `${drawn.nodes} names and ${drawn.edges} links drawn from the answer's hop chains; arrows point from the stating label's drug (or class) to its target. The table above says the same in words.`;
  }
  return `${data.relationships.length} relationships`;
}

function showVerify(input) {
  const outcome = element("div", { class: "outcome", role: "status" });
  $("pg-results").replaceChildren(outcome);
  return verify(input, outcome);
}

async function run(event) {
  event.preventDefault();
  const endpoint = $("pg-endpoint").value;
  const input = $("pg-input").value.trim();
  $("pg-answer").hidden = false;
  $("pg-graph-wrap").hidden = true;
  $("pg-graph").replaceChildren();
  $("pg-summary").replaceChildren();
  $("pg-results").replaceChildren();
  $("pg-json").textContent = "";
  $("pg-status").textContent = "running…";
  try {
    if (endpoint === "search") {
      $("pg-status").textContent = showSearch((await call("POST", "/v1/search", { question: input, top_k: 5 })).data);
    } else if (endpoint === "graph") {
      $("pg-status").textContent = showGraph((await call("POST", "/v1/graph", { question: input, max_hops: 2, limit: 10 })).data);
    } else {
      const ok = await showVerify(input);
      $("pg-status").textContent = ok ? "verify answered" : "verify failed: see below";
    }
  } catch (error) {
    $("pg-status").textContent = `Error ${error.message}`;
  }
}

$("pg-endpoint").addEventListener("change", () => {
  const verifying = $("pg-endpoint").value === "verify";
  $("pg-input-label").textContent = verifying ? "Fingerprint (128 characters of 0 and 1)" : "Question";
});
$("playground").addEventListener("submit", run);

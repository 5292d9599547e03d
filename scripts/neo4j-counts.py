"""Checks a `drugcite sync-neo4j` report against the index it synced and the database it wrote:
the report's node and relationship counts against the generation's manifest (graph nodes and
relationships, label versions, segment docs), and the counts stored in FalkorDB against the
report. Prints one line per check; exits non-zero on the first list of mismatches.
Usage: neo4j-counts.py MANIFEST SYNC_REPORT FALKORDB_PORT [GRAPH]   (used by bench-neo4j.sh)
"""
import asyncio
import json
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "bolt"))
from falkordb_bolt import Redis  # noqa: E402  the RESP client of the test adapter

NODE_LABELS = {"condition": "Condition", "drug": "Drug", "drug_class": "DrugClass",
               "population": "Population"}


def reported(report_path):
    """{"nodes": {label: n}, "relationships": {type: n}, "rows": n} from the sync's report."""
    text = Path(report_path).read_text()
    counts = {}
    for kind in ("nodes", "relationships"):
        line = re.search(rf"^neo4j {kind}: (.*)$", text, re.M).group(1)
        counts[kind] = {name: int(n) for name, n in re.findall(r"(\w+) (\d+)", line)}
    counts["rows"] = int(re.search(r"^neo4j sync: (\d+) rows", text, re.M).group(1))
    return counts


def expected(manifest_path):
    """What the manifest says the sync must write. Not in it: Section rows, and HAS_LABEL (a
    superseded version named otherwise than its set's current one has no Drug node)."""
    manifest = json.loads(Path(manifest_path).read_text())
    graph, history = manifest["graph"], manifest["history"]
    nodes = {NODE_LABELS[kind]: n for kind, n in graph["nodes"].items()}
    nodes["Label"] = history["label_versions"]
    nodes["Segment"] = history["segment_docs_written"] + history["segment_docs_copied"]
    relationships = {kind.upper(): n for kind, n in graph["relationships"].items()}
    return {"nodes": nodes, "relationships": relationships}


async def stored(port, graph, report):
    redis = await Redis.connect("127.0.0.1", port)
    counts = {"nodes": {}, "relationships": {}}
    patterns = {"nodes": "MATCH (n:{}) RETURN count(n)",
                "relationships": "MATCH ()-[r:{}]->() RETURN count(r)"}
    for kind, pattern in patterns.items():
        for name in report[kind]:
            reply = await redis.call("GRAPH.QUERY", graph, pattern.format(name))
            counts[kind][name] = int(reply[1][0][0])
    redis.writer.close()
    return counts


def differences(what, want, have):
    return [f"{what} {kind} {name}: {have[kind].get(name)} where {n} expected"
            for kind in ("nodes", "relationships")
            for name, n in want[kind].items() if have[kind].get(name) != n]


def main():
    manifest, report_path, port = sys.argv[1], sys.argv[2], int(sys.argv[3])
    graph = sys.argv[4] if len(sys.argv) > 4 else "drugcite"
    report = reported(report_path)
    problems = differences("reported", expected(manifest), report)
    if report["nodes"]["Section"] != report["relationships"]["HAS_SECTION"]:
        problems.append("reported Section nodes differ from HAS_SECTION relationships")
    database = asyncio.run(stored(port, graph, report))
    problems += differences("stored", report, database)
    if problems:
        sys.exit("bench-neo4j: counts differ:\n  " + "\n  ".join(problems))
    nodes, relationships = (sum(report[k].values()) for k in ("nodes", "relationships"))
    print(f"counts checked (manifest = report = FalkorDB): {nodes} nodes, "
          f"{relationships} relationship rows, {report['rows']} rows")


if __name__ == "__main__":
    main()

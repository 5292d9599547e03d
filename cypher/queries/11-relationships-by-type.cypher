// The graph at a glance: relationships from drugs by type, and their stating segments.
MATCH (:Drug)-[r]->()
WHERE type(r) <> "HAS_LABEL"
RETURN type(r) AS relation, count(r) AS relationships, sum(size(r.evidence)) AS evidence
ORDER BY relationships DESC, relation;

// A drug's life-threatening adverse reactions and warnings, by how many segments state them.
// Parameters: $drug.
MATCH (d:Drug {name: $drug})-[r]->(c:Condition)
WHERE r.severity = "life_threatening" AND type(r) IN ["ADVERSE_REACTION", "WARNING"]
RETURN c.name AS condition, type(r) AS relation, size(r.evidence) AS segments
ORDER BY segments DESC, condition, relation;

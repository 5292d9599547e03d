// Drugs whose Indications sections name a condition, matched on words of its name.
// Parameters: $words (lowercase, e.g. "hypertension").
MATCH (d:Drug)-[:INDICATION]->(c:Condition)
WHERE c.name CONTAINS $words
RETURN d.name AS drug, c.name AS condition
ORDER BY drug, condition;

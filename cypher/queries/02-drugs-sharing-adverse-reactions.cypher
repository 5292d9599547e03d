// The drugs whose labels report the most adverse reactions in common with a drug's label.
// Parameters: $drug.
MATCH (a:Drug {name: $drug})-[:ADVERSE_REACTION]->(c:Condition)<-[:ADVERSE_REACTION]-(b:Drug)
WHERE b.id <> a.id
RETURN b.name AS drug, count(DISTINCT c) AS shared
ORDER BY shared DESC, drug
LIMIT 25;

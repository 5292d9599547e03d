// Drugs that interact with a drug (either direction) and whose labels report a condition as
// an adverse reaction or warning.
// Parameters: $drug, $reaction (words of the condition's name, e.g. "bleeding").
MATCH (a:Drug {name: $drug})-[:INTERACTION]-(b:Drug)-[r]->(c:Condition)
WHERE b.id <> a.id AND c.name CONTAINS $reaction AND type(r) IN ["ADVERSE_REACTION", "WARNING"]
RETURN DISTINCT b.name AS drug, c.name AS condition, type(r) AS relation
ORDER BY drug, condition, relation;

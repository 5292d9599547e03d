// Two-hop interaction chains from a drug: a drug or class it interacts with (either
// direction), then a drug that interacts with that one or belongs to that class.
// Parameters: $drug.
MATCH (a:Drug {name: $drug})-[:INTERACTION]-(b)-[r]-(c:Drug)
WHERE type(r) IN ["INTERACTION", "MEMBER_OF"] AND b.id <> a.id AND c.id <> a.id AND c.id <> b.id
RETURN DISTINCT b.name AS via, type(r) AS link, c.name AS reaches
ORDER BY via, link, reaches;

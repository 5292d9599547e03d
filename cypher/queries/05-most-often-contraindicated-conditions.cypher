// The conditions the most drugs are contraindicated in.
MATCH (d:Drug)-[:CONTRAINDICATION]->(c:Condition)
RETURN c.id AS id, c.name AS condition, count(DISTINCT d) AS drugs
ORDER BY drugs DESC, id
LIMIT 25;

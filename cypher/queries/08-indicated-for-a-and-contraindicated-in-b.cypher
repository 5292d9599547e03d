// Drugs indicated for one condition and contraindicated in another (words of their names).
// Parameters: $indication, $contraindication (e.g. "diabetes", "renal").
MATCH (d:Drug)-[:INDICATION]->(i:Condition), (d)-[:CONTRAINDICATION]->(x:Condition)
WHERE i.name CONTAINS $indication AND x.name CONTAINS $contraindication
RETURN DISTINCT d.name AS drug, i.name AS indicated_for, x.name AS contraindicated_in
ORDER BY drug, indicated_for, contraindicated_in;

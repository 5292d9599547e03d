// A drug's contraindications with the text of every stating segment, most severe first.
// Parameters: $drug (generic name, lowercase, as the Drug node's name, e.g. "tadalafil").
MATCH (d:Drug {name: $drug})-[r:CONTRAINDICATION]->(t)
UNWIND r.evidence AS fingerprint
MATCH (g:Segment {fingerprint: fingerprint})
RETURN t.name AS target, r.severity AS severity, fingerprint, g.text AS text
ORDER BY target, fingerprint;

// The label versions (and section) a segment fingerprint comes from, newest first, with where
// each stands (current, superseded, withdrawn) and the label's newest version: a fingerprint
// keeps resolving after its label gets a new version or is withdrawn.
// Parameters: $fingerprint (32 hex digits: the 128-bit fingerprint, most significant first).
MATCH (l:Label)-[:HAS_SECTION]->(s:Section)-[:HAS_SEGMENT]->(g:Segment {fingerprint: $fingerprint})
RETURN l.set_id AS set_id, l.version AS version, l.effective_time AS effective_time,
       l.status AS status, l.newest_version AS newest_version, l.label_id AS label_id,
       s.name AS section, l.source_url AS source
ORDER BY l.version_rank DESC, effective_time DESC, label_id;

// Every label holding exactly the text of a segment: repackagers and other labelers copy a
// label's text word for word; each copy has its own fingerprint (it hashes the set id), and
// all copies share the segment's text_hash. The segment's own label is among the rows.
// Parameters: $fingerprint (32 hex digits: the 128-bit fingerprint, most significant first).
MATCH (g:Segment {fingerprint: $fingerprint})
MATCH (l:Label)-[:HAS_SECTION]->(s:Section)-[:HAS_SEGMENT]->(c:Segment)
WHERE c.text_hash = g.text_hash
RETURN l.set_id AS set_id, l.manufacturer AS manufacturer, c.fingerprint AS fingerprint,
       s.name AS section
ORDER BY set_id, fingerprint, section;

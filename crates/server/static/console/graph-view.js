// The playground's drawing of a /v1/graph answer: the hop chains of its relationships as a
// directed graph laid out by cytoscape.js (vendored, served by drugcite): arrow heads, one
// colour per relationship type with a legend (edge labels too when there are few), labels on
// a white ground, top-down on wide screens and left-to-right on phones. Draws only; the
// relationships table is the accessible reading.
"use strict";

window.drugciteGraph = {
  COLOURS: {
    contraindication: "#b3261e", interaction: "#6a3fb5", warning: "#9a5b00", adverse_reaction: "#3d6fb6",
    indication: "#2e7d32", has_member: "#6b7480", member_of: "#6b7480",
  },

  // The nodes and edges of `data.paths`, one edge per distinct hop.
  elements(data) {
    const drugs = new Set(data.relationships.map((r) => r.drug));
    const nodes = new Map();
    const edges = new Map();
    for (const path of data.paths) {
      for (const hop of path.hops) {
        for (const name of [hop.from, hop.to]) {
          if (!nodes.has(name)) nodes.set(name, { data: { id: `n:${name}`, label: name }, classes: drugs.has(name) ? "drug" : "" });
        }
        const id = `e:${hop.from}|${hop.type}|${hop.to}`;
        if (!edges.has(id)) {
          edges.set(id, { data: { id, type: hop.type, source: `n:${hop.from}`, target: `n:${hop.to}`, label: hop.type.replaceAll("_", " ") } });
        }
      }
    }
    return { nodes: [...nodes.values()], edges: [...edges.values()] };
  },

  // Draws into `container`; returns the nodes and edges drawn and the relationship types used.
  draw(container, data) {
    const { nodes, edges } = this.elements(data);
    const narrow = container.clientWidth < 560;
    const labelled = edges.length <= 4;
    const types = [...new Set(edges.map((e) => e.data.type))];
    const colour = (type) => this.COLOURS[type] || "#6b7480";
    if (narrow) container.style.height = `${Math.max(360, 80 * nodes.length)}px`;
    window.cytoscape({
      container,
      elements: [...nodes, ...edges],
      userZoomingEnabled: false,
      userPanningEnabled: false,
      boxSelectionEnabled: false,
      autoungrabify: true,
      maxZoom: 1.4,
      style: [
        { selector: "node", style: {
          "background-color": "#e8f0fb", "border-color": "#0b5cad", "border-width": 2, width: 18, height: 18,
          label: "data(label)", "font-size": 13, color: "#1b2430", "text-valign": "bottom", "text-margin-y": 4,
          "text-wrap": "wrap", "text-max-width": narrow ? 120 : 150,
          "text-background-color": "#ffffff", "text-background-opacity": 0.9, "text-background-padding": 2 } },
        { selector: "node.drug", style: { "background-color": "#0b5cad", "font-weight": "bold" } },
        { selector: "edge", style: {
          width: 2, "line-color": (e) => colour(e.data("type")), "target-arrow-color": (e) => colour(e.data("type")),
          "target-arrow-shape": "triangle", "arrow-scale": 1.4, "curve-style": "bezier", "control-point-step-size": 28,
          label: labelled ? "data(label)" : "", "font-size": 12, color: "#3d4654", "text-rotation": "autorotate",
          "text-background-color": "#ffffff", "text-background-opacity": 1, "text-background-padding": 2 } },
        { selector: 'edge[type = "has_member"], edge[type = "member_of"]', style: { "line-style": "dashed" } },
      ],
      layout: {
        name: "breadthfirst", directed: true, padding: 28, spacingFactor: narrow ? 1.1 : 1.3,
        avoidOverlap: true, nodeDimensionsIncludeLabels: true,
        // Phones: levels run left to right, so the drawing grows down, not sideways.
        transform: narrow ? (node, position) => ({ x: position.y, y: position.x }) : (node, position) => position,
      },
    });
    return { nodes: nodes.length, edges: edges.length, types, colour };
  },
};

// The playground's drawing of a /v1/graph answer: the hop chains of its relationships as a
// directed graph laid out by cytoscape.js (vendored, served by drugcite), with arrow heads and
// labels on a white ground. Draws only; the relationships table is the accessible reading.
"use strict";

window.drugciteGraph = {
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
          edges.set(id, { data: { id, source: `n:${hop.from}`, target: `n:${hop.to}`, label: hop.type.replaceAll("_", " ") } });
        }
      }
    }
    return { nodes: [...nodes.values()], edges: [...edges.values()] };
  },

  // Draws into `container`; returns the number of nodes and edges drawn.
  draw(container, data) {
    const { nodes, edges } = this.elements(data);
    const narrow = container.clientWidth < 560;
    window.cytoscape({
      container,
      elements: [...nodes, ...edges],
      userZoomingEnabled: false,
      userPanningEnabled: false,
      boxSelectionEnabled: false,
      autoungrabify: true,
      style: [
        { selector: "node", style: {
          "background-color": "#e8f0fb", "border-color": "#0b5cad", "border-width": 2, width: 18, height: 18,
          label: "data(label)", "font-size": narrow ? 13 : 12, color: "#1b2430", "text-valign": "bottom", "text-margin-y": 4,
          "text-wrap": "wrap", "text-max-width": narrow ? 110 : 150,
          "text-background-color": "#ffffff", "text-background-opacity": 0.9, "text-background-padding": 2 } },
        { selector: "node.drug", style: { "background-color": "#0b5cad", "font-weight": "bold" } },
        { selector: "edge", style: {
          width: 1.8, "line-color": "#7b8797", "target-arrow-color": "#7b8797", "target-arrow-shape": "triangle",
          "arrow-scale": 1.3, "curve-style": "bezier", label: "data(label)", "font-size": narrow ? 12 : 11, color: "#3d4654",
          "text-rotation": "autorotate", "text-background-color": "#ffffff", "text-background-opacity": 1,
          "text-background-padding": 2 } },
      ],
      layout: {
        name: "breadthfirst", directed: true, padding: 24, spacingFactor: narrow ? 1.0 : 1.25,
        avoidOverlap: true, nodeDimensionsIncludeLabels: true, circle: false,
      },
    });
    return { nodes: nodes.length, edges: edges.length };
  },
};

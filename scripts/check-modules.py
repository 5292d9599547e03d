#!/usr/bin/env python3
"""Checks the module graph of every crate of the workspace (CI runs it; std-only).

For each crate's `src/`, every `use` and every inline `crate::`/`super::`/`self::` path outside
`#[cfg(test)]` modules is resolved to the module that defines the item, following `pub use`
re-exports. It then fails on:
  - a cycle: sibling modules (at any depth) that import each other, directly or around a loop;
  - a back-up import: a module importing an item defined in one of its ancestors' own files
    (a parent should only declare and re-export; what its children share lives in a sibling).
Each finding is printed as `crate: a -> b` with the file and line of every import on the way.

Usage: scripts/check-modules.py [--graph CRATE_DIR]   (--graph prints one crate's edges)
"""

import collections
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TEST_MODULE = re.compile(r"#\[cfg\(test\)\]\s*(?:pub(?:\([^)]*\))?\s+)?mod\s+\w+\s*\{")
USE = re.compile(r"\buse\s+([^;]+);")
PUB_USE = re.compile(r"\bpub(?:\([^)]*\))?\s+use\s+([^;]+);")
INLINE = re.compile(r"(?<![:\w])((?:crate|super|self)(?:::\w+)+)(?![\w:])")
EXPORTED_MACRO = re.compile(r"#\[macro_export\]\s*macro_rules!\s*(\w+)")


def crate_dirs():
    yield "drugcite", os.path.join(ROOT, "src")
    crates = os.path.join(ROOT, "crates")
    for name in sorted(os.listdir(crates)):
        src = os.path.join(crates, name, "src")
        if os.path.isdir(src):
            yield f"drugcite-{name}", src


def without_tests(text):
    """The source without `#[cfg(test)]` modules (inline or declared) and comments."""
    kept, last = [], 0
    for match in TEST_MODULE.finditer(text):
        kept.append(text[last : match.start()])
        depth, at = 1, match.end()
        while at < len(text) and depth:
            depth += {"{": 1, "}": -1}.get(text[at], 0)
            at += 1
        last = at
    kept.append(text[last:])
    text = re.sub(r"#\[cfg\(test\)\]\s*(?:pub(?:\([^)]*\))?\s+)?mod\s+\w+\s*;", "", "".join(kept))
    return re.sub(r"//[^\n]*", "", text)


def split_group(inner):
    parts, depth, current = [], 0, ""
    for ch in inner:
        depth += {"{": 1, "}": -1}.get(ch, 0)
        if ch == "," and depth == 0:
            parts.append(current)
            current = ""
        else:
            current += ch
    parts.append(current)
    return [p.strip() for p in parts if p.strip()]


def expand(path):
    """`a::b::{c, d::e}` → [`a::b::c`, `a::b::d::e`]."""
    match = re.match(r"^(.*?)::\{(.*)\}$", path, re.S)
    if not match:
        return [path]
    return [f"{match.group(1)}::{x}" for part in split_group(match.group(2)) for x in expand(part)]


def use_paths(clause):
    clause = re.sub(r"\s+as\s+\w+", "", clause)
    return expand(re.sub(r"\s+", "", clause))


class Crate:
    def __init__(self, src):
        self.modules = {}
        for folder, _, files in os.walk(src):
            for name in files:
                if name.endswith(".rs"):
                    path = os.path.join(folder, name)
                    parts = os.path.relpath(path, src)[:-3].split(os.sep)
                    if parts[-1] in ("mod", "lib", "main"):
                        parts = parts[:-1]
                    if parts and parts[-1] == "tests":
                        continue
                    self.modules[tuple(parts)] = path
        self.texts = {m: without_tests(open(p).read()) for m, p in self.modules.items()}
        self.reexports = {}
        for module, text in self.texts.items():
            for match in PUB_USE.finditer(text):
                for path in use_paths(match.group(1)):
                    segments = path.split("::")
                    target = self.absolute(module, segments)
                    if target and segments[-1] != "*":
                        self.reexports[(module, segments[-1])] = target
        for module, text in self.texts.items():
            for match in EXPORTED_MACRO.finditer(text):
                # `#[macro_export]` puts a macro at the crate root; its home is where it is written.
                self.reexports[((), match.group(1))] = list(module) + [match.group(1)]
        self.edges = collections.defaultdict(lambda: collections.defaultdict(list))
        for module, text in self.texts.items():
            for at, segments in self.references(text):
                target = self.absolute(module, segments)
                if target is None:
                    continue
                defined = self.resolve(target)
                inside = defined[: len(module)] == module and len(defined) > len(module)
                if defined != module and not inside:
                    line = text.count("\n", 0, at) + 1
                    place = f"{os.path.relpath(self.modules[module], ROOT)}:{line}"
                    if place not in self.edges[module][defined]:
                        self.edges[module][defined].append(place)

    def references(self, text):
        for match in USE.finditer(text):
            for path in use_paths(match.group(1)):
                yield match.start(), path.split("::")
        for match in INLINE.finditer(text):
            yield match.start(), match.group(1).split("::")

    def absolute(self, module, segments):
        if segments[0] == "crate":
            return segments[1:]
        if segments[0] == "self":
            return list(module) + segments[1:]
        ups = 0
        while segments and segments[0] == "super":
            ups, segments = ups + 1, segments[1:]
        if ups:
            return list(module[: len(module) - ups]) + segments
        if tuple(list(module) + segments[:1]) in self.modules:
            return list(module) + segments
        return None

    def resolve(self, path, depth=0):
        for length in range(len(path), -1, -1):
            module = tuple(path[:length])
            if module in self.modules:
                alias = (module, path[length]) if length < len(path) else None
                if alias in self.reexports and depth < 10:
                    return self.resolve(self.reexports[alias] + path[length + 1 :], depth + 1)
                return module
        return ()

    def cycles(self):
        found = []
        for parent in sorted({m[:-1] for m in self.modules if m}):
            graph = collections.defaultdict(set)
            for source, targets in self.edges.items():
                a = child_of(source, parent)
                for target in targets:
                    b = child_of(target, parent)
                    if a and b and a != b:
                        graph[a].add(b)
            found.extend(strongly_connected(graph))
        return found

    def backups(self):
        return [
            (source, target, places)
            for source, targets in sorted(self.edges.items())
            for target, places in sorted(targets.items())
            if len(target) < len(source) and source[: len(target)] == target
        ]


def child_of(module, parent):
    if module[: len(parent)] != parent or len(module) <= len(parent):
        return None
    return module[: len(parent) + 1]


def strongly_connected(graph):
    index, low, stack, on_stack, components = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                components.append(sorted(component))

    sys.setrecursionlimit(10000)
    for vertex in sorted(graph):
        if vertex not in index:
            visit(vertex)
    return components


def name(module):
    return "/".join(module) or "<crate root>"


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--graph":
        crate = Crate(os.path.join(sys.argv[2], "src") if os.path.isdir(os.path.join(sys.argv[2], "src")) else sys.argv[2])
        for source, targets in sorted(crate.edges.items()):
            for target in sorted(targets):
                print(f"{name(source)} -> {name(target)}")
        return 0
    problems = 0
    for crate_name, src in crate_dirs():
        crate = Crate(src)
        for component in crate.cycles():
            problems += 1
            print(f"{crate_name}: cycle {' <-> '.join(name(m) for m in component)}")
            members = set(component)
            for source, targets in crate.edges.items():
                for target, places in targets.items():
                    a = next((m for m in members if source[: len(m)] == m), None)
                    b = next((m for m in members if target[: len(m)] == m), None)
                    if a and b and a != b:
                        print(f"    {name(source)} -> {name(target)}: {', '.join(places[:3])}")
        for source, target, places in crate.backups():
            problems += 1
            print(f"{crate_name}: back-up import {name(source)} -> {name(target)}: {', '.join(places[:3])}")
    if problems:
        print(f"{problems} module-graph problem(s)", file=sys.stderr)
        return 1
    print("module graph: no cycles, no back-up imports")
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""The import structure of src/: which layer uses which, the arrows that run back
up the stack of DESIGN.md, the import circles between files, and the files over
the size limit.

    python3 scripts/layers.py            # report
    python3 scripts/layers.py --check    # also exit 1 past the limits below (CI)

A file's imports are the `crate::`, `super::` and `self::` paths it names outside
comments (`use` lines and paths in code). A name is resolved to the file that
defines it (re-exports by `mod.rs` faces followed to the definition), so a face
that re-exports a child is not an edge of its own. Floors, bottom to top: error and
memory; core_crypto; the serialization codec (with its public face,
`serialization/mod.rs`, whose re-export of the high level's conformance checks is
a marked arrow up); shortint; backend (with its CUDA driver layer); integer;
scheduler; high_level; cluster. An arrow back up is a file on one floor naming an
item defined on a higher one. The allowed exceptions say why in a `// layers: up`
comment on the line (or the line above); they count toward the limit. No import
circle between files is allowed.
"""

import os
import re
import sys

SRC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src")
FLOORS = [
    ("error", 0), ("memory", 0), ("core_crypto", 1), ("serialization", 2),
    ("shortint", 3), ("backend", 4), ("integer", 5), ("scheduler", 6),
    ("high_level", 7), ("lib", 8), ("cluster", 8),
]
MAX_UP = 3
MAX_CIRCLES = 0
MAX_LINES = 800


def module_of(rel):
    """`high_level/keys.rs` -> ['high_level', 'keys']; mod.rs -> its folder."""
    parts = rel[:-3].split("/")
    if parts[-1] == "mod":
        parts = parts[:-1]
    return [] if parts == ["lib"] else parts


def floor_of(rel):
    for prefix, floor in FLOORS:
        if rel == prefix + ".rs" or rel.startswith(prefix + "/") or rel == prefix + "/mod.rs":
            return floor, prefix
    return FLOORS[-2][1], "lib"


def strip_tests(text):
    """`text` without its `#[cfg(test)]` modules (their imports are not the
    product's structure): from the attribute to the end of the module, found by
    its braces."""
    out, at = [], 0
    for m in re.finditer(r"#\[cfg\(test\)\]\s*(?:pub(?:\([^)]*\))?\s+)?mod\s+\w+\s*\{", text):
        if m.start() < at:
            continue
        depth, i = 1, m.end()
        while i < len(text) and depth:
            depth += {"{": 1, "}": -1}.get(text[i], 0)
            i += 1
        out.append(text[at:m.start()])
        out.append("\n" * text[m.start():i].count("\n"))
        at = i
    out.append(text[at:])
    return "".join(out)


def strip_comments(text):
    """`text` without test modules, comments and the contents of string literals
    (doc attributes name paths in links, which are not imports)."""
    text = strip_tests(text)
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    text = re.sub(r'"(?:[^"\\\n]|\\.)*"', '""', text)
    return "\n".join(line.split("//")[0] if "//" in line and "://" not in line else line
                     for line in text.split("\n"))


def main():
    files = {}
    for root, _, names in os.walk(SRC):
        for name in names:
            if name.endswith(".rs"):
                path = os.path.join(root, name)
                rel = os.path.relpath(path, SRC).replace(os.sep, "/")
                files[rel] = open(path, encoding="utf-8").read()
    by_module = {tuple(module_of(rel)): rel for rel in files}
    # What each file defines, and what each face re-exports.
    defines = {}
    item = re.compile(r"^\s*pub(?:\([^)]*\))?\s+(?:const\s+fn|unsafe\s+fn|fn|struct|enum|trait|type|const|static|mod|macro_rules!)\s+(\w+)", re.M)
    macro = re.compile(r"^\s*macro_rules!\s+(\w+)", re.M)
    for rel, text in files.items():
        for m in item.finditer(text):
            defines.setdefault(m.group(1), set()).add(rel)
        for m in macro.finditer(text):
            defines.setdefault(m.group(1), set()).add(rel)

    def resolve(module, name, seen=0):
        """The file defining `name` reached through `module` (a path list)."""
        for cut in range(len(module), -1, -1):
            rel = by_module.get(tuple(module[:cut]))
            if rel is None:
                continue
            if cut < len(module):
                continue
            # `name` is a child module, or an item of this module's subtree.
            child = by_module.get(tuple(module + [name]))
            if child:
                return child
            owners = defines.get(name, set())
            prefix = "/".join(module)
            inside = [o for o in owners if not prefix or o == prefix + ".rs" or o.startswith(prefix + "/")]
            if inside:
                return rel if rel in inside else sorted(inside)[0]
            # A re-export from elsewhere: the file that defines it anywhere.
            if owners and seen < 3:
                return sorted(owners)[0]
            return rel
        return None

    edges = {rel: {} for rel in files}
    path_re = re.compile(r"\b(crate|super|self)((?:::\w+)+)(?:::\{([^}]*)\})?")
    for rel, text in files.items():
        here = module_of(rel)
        is_face = rel.endswith("mod.rs") or rel == "lib.rs"
        lines = strip_comments(text).split("\n")
        raw = text.split("\n")
        for number, line in enumerate(lines):
            for m in path_re.finditer(line):
                head, tail, group = m.group(1), m.group(2), m.group(3)
                parts = tail.strip(":").split("::")
                if head == "crate":
                    base = []
                elif head == "super":
                    base = here[:-1] if not is_face else here[:-1]
                    while parts and parts[0] == "super":
                        base, parts = base[:-1], parts[1:]
                else:
                    base = list(here)
                names = [g.strip().split(" as ")[0].split("::")[0] for g in group.split(",")] if group else []
                targets = []
                mod_parts = parts if group else parts[:-1]
                last = [] if group else parts[-1:]
                module = base + mod_parts
                # Walk down while the path names modules.
                while len(module) > len(base) and tuple(module) not in by_module:
                    last, names = [module[-1]], []
                    module = module[:-1]
                for name in (names or last):
                    if name in ("self", "*", ""):
                        target = by_module.get(tuple(module))
                    else:
                        target = resolve(module, name)
                    if target and target != rel:
                        targets.append(target)
                marked = "layers: up" in raw[number] or (number > 0 and "layers: up" in raw[number - 1])
                for target in targets:
                    edges[rel].setdefault(target, marked)
                    edges[rel][target] = edges[rel][target] or marked

    # Arrows between floors' rooms, and those back up.
    up = []
    rooms = set()
    for a, targets in edges.items():
        fa, ra = floor_of(a)
        for b, marked in targets.items():
            fb, rb = floor_of(b)
            if ra != rb:
                rooms.add((ra, rb))
            if fb > fa:
                up.append((a, b, marked))
    # Circles: strongly connected components of the file graph (faces excluded,
    # as re-exports resolve through them).
    index, low, stack, on, sccs, counter = {}, {}, [], set(), [], [0]
    sys.setrecursionlimit(10000)

    def connect(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in edges[v]:
            if w not in index:
                connect(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            scc = []
            while True:
                w = stack.pop()
                on.discard(w)
                scc.append(w)
                if w == v:
                    break
            if len(scc) > 1:
                sccs.append(sorted(scc))

    for v in sorted(edges):
        if v not in index:
            connect(v)
    big = sorted((len(text.split("\n")) - 1, rel) for rel, text in files.items()
                 if len(text.split("\n")) - 1 > MAX_LINES)

    print(f"{len(files)} files, {len(rooms)} arrows between rooms")
    print(f"arrows back up: {len(up)}")
    for a, b, marked in sorted(up):
        print(f"  {a} -> {b}" + ("  (allowed: marked `layers: up`)" if marked else ""))
    print(f"import circles: {len(sccs)}")
    for scc in sccs:
        print(f"  {len(scc)} files: {' '.join(scc)}")
        if "--edges" in sys.argv:
            for a in scc:
                inner = sorted(b for b in edges[a] if b in scc)
                print(f"    {a} -> {' '.join(inner)}")
    print(f"files over {MAX_LINES} lines: {len(big)}")
    for lines, rel in big:
        print(f"  {rel}: {lines}")
    if "--check" in sys.argv:
        unmarked = [u for u in up if not u[2]]
        bad = len(up) > MAX_UP or unmarked or len(sccs) > MAX_CIRCLES or big
        if bad:
            print("layers: over the limits (at most %d marked arrows back up, %d circles, "
                  "no file over %d lines)" % (MAX_UP, MAX_CIRCLES, MAX_LINES))
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

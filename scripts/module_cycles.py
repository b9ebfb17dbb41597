#!/usr/bin/env python3
"""Lists import cycles between the modules of a Rust crate; exits 1 when there is one.

usage: scripts/module_cycles.py [SRC_DIR [MODULE]]   (default: src, every module)

With MODULE (`tool`), only cycles among modules under it are reported (and decide the
exit status): a check of one part of the crate that others may not have cleaned yet.

A module uses another when its file names it by path, in a `use` or inline
(`crate::a::b`, `super::x::Y`, `super::super::x`, grouped `crate::a::{b, c::D}`);
comments and a file's own unit tests (`#[cfg(test)] mod tests`) are ignored. Cycles are looked for at each depth of the module tree
(top-level modules, then their children, ...): `source` -> `workspace` -> `object` ->
`source` is one at depth 1, `jsonl::counts` <-> `jsonl::titles` at depth 3. A child using
its own parent (`use super::{Engine, State}`) is the usual shape, not a cycle.
"""
import os
import re
import sys


def module_of(root, path):
    parts = os.path.relpath(path, root)[:-3].split(os.sep)
    if parts[-1] in ("mod", "lib", "main"):
        parts = parts[:-1]
    return parts


def paths_in(text, head):
    """Every path that starts with `head` (`crate::`, `super::`), grouped imports
    expanded: `crate::a::{b::X, c}` gives `a::b::X` and `a::c`."""
    out = []
    for m in re.finditer(re.escape(head), text):
        i = m.end()
        out.extend(expand(text, i))
    return out


def expand(text, i, prefix=""):
    """The paths written at `text[i:]` after `prefix` (a path, or a `{...}` group)."""
    m = re.match(r"((?:[A-Za-z_0-9]+::)*)(\{|[A-Za-z_0-9]+)", text[i:])
    if not m:
        return [prefix.rstrip(":")] if prefix else []
    path = prefix + m.group(1)
    if m.group(2) != "{":
        return [path + m.group(2)]
    # A group: split at the top-level commas.
    j, depth, start, out = i + m.end(), 1, i + m.end(), []
    while j < len(text) and depth:
        c = text[j]
        if c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
        if (c == "," and depth == 1) or depth == 0:
            item = text[start:j].strip()
            if item and item != "self":
                out.extend(expand(item, 0, path))
            elif item == "self":
                out.append(path.rstrip(":"))
            start = j + 1
        j += 1
    return out


def module_path(names):
    """The module names of a path: up to the first capitalised name (an item)."""
    out = []
    for n in names:
        if not n.islower() and not n.replace("_", "").isdigit():
            break
        out.append(n)
    return out


def edges_at(root, depth):
    edges = {}
    for d, _, files in os.walk(root):
        for f in files:
            if not f.endswith(".rs"):
                continue
            path = os.path.join(d, f)
            me_parts = module_of(root, path)
            # The module `super` names: the parent of the file's module (a `mod.rs`
            # file's module is its directory; its `super` is the one above).
            parent = me_parts[:-1]
            me = "::".join(me_parts[:depth])
            text = re.sub(r"//.*", "", open(path, encoding="utf-8").read())
            # Unit tests (`mod tests`) use their own file through `super::*`.
            text = re.split(r"#\[cfg\(test\)\]\s*mod tests", text)[0]
            targets = []
            for t in paths_in(text, "crate::"):
                targets.append(module_path(t.split("::")))
            for t in paths_in(text, "super::"):
                names = t.split("::")
                base = list(parent)
                while names and names[0] == "super":
                    base = base[:-1]
                    names = names[1:]
                mods = module_path(names)
                if mods:
                    targets.append(base + mods)
            for names in targets:
                target = "::".join(names[:depth])
                if target and target != me and not me.startswith(target + "::"):
                    edges.setdefault(me, set()).add(target)
    return edges


def cycles(edges):
    """Strongly connected components of more than one module (Tarjan)."""
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in edges.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in list(edges):
        if v not in index:
            visit(v)
    return out


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else "src"
    under = sys.argv[2] if len(sys.argv) > 2 else None
    found = []
    for depth in range(1, 6):
        for c in cycles(edges_at(root, depth)):
            if under and not all(m == under or m.startswith(under + "::") for m in c):
                continue
            # A cycle between files seen at one depth is the same at every deeper one.
            if c in found:
                continue
            found.append(c)
            print(f"import cycle (depth {depth}): " + " -> ".join(c + [c[0]]))
    print(f"{len(found)} import cycles in {root}" + (f" under {under}" if under else ""))
    sys.exit(1 if found else 0)


if __name__ == "__main__":
    main()

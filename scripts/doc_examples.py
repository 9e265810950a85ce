#!/usr/bin/env python3
"""How many public functions of src/ have a runnable doc example ending in an
assert, per layer (DESIGN.md §7: every public function has one).

    python3 scripts/doc_examples.py              # the table
    python3 scripts/doc_examples.py --missing high_level   # the functions without one
    python3 scripts/doc_examples.py --check      # exit 1 below the targets (CI)

A public function is a `pub fn` / `pub const fn` / `pub unsafe fn` outside test
modules, written in the source (a function a macro generates counts once, where the
macro writes it). Its example is the doc comment right above it (`///` lines and
`#[doc = ...]` attributes, with attributes between them): a fenced code block that
is Rust (no language, `rust`, `no_run`; not `ignore` or `text`) whose last line
that is not hidden (`# `) and not blank starts with `assert`. A function whose
docs say "example at [...]" (the example of its group, on the item named) counts
as its group's. Targets (issue 35): 80 % of the high level, 70 % crate-wide.
"""

import os
import re
import sys

SRC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src")
TARGETS = {"high_level": 0.80, "crate": 0.70}
FN = re.compile(r"^\s*pub(?:\(crate\))?\s+(?:const\s+)?(?:unsafe\s+)?fn\s+(\w+)")
PUB_FN = re.compile(r"^\s*pub\s+(?:const\s+)?(?:unsafe\s+)?fn\s+(\w+)")


def strip_test_modules(lines):
    """`lines` with `#[cfg(test)]` modules blanked (kept as empty lines)."""
    out, skip, depth = [], False, 0
    for i, line in enumerate(lines):
        if not skip and line.strip().startswith("#[cfg(test)]") and i + 1 < len(lines) \
                and re.match(r"\s*(pub(\(crate\))?\s+)?mod\s+\w+\s*\{", lines[i + 1]):
            skip, depth = True, 0
            out.append("")
            continue
        if skip:
            depth += line.count("{") - line.count("}")
            out.append("")
            if depth <= 0 and "}" in line:
                skip = False
            continue
        out.append(line)
    return out


def doc_above(lines, i):
    """The doc lines right above line `i` (attributes skipped)."""
    doc, j = [], i - 1
    while j >= 0:
        s = lines[j].strip()
        if s.startswith("///"):
            doc.append(s[3:][1:] if s[3:].startswith(" ") else s[3:])
        elif s.startswith("#[doc"):
            m = re.search(r'"(.*)"', s)
            doc.append(m.group(1) if m else "")
        elif s.startswith("#[") or s.startswith("$(#[") or s == "":
            if s == "" and not (j > 0 and lines[j - 1].strip().startswith(("///", "#["))):
                break
        else:
            break
        j -= 1
    return list(reversed(doc))


def has_example(doc):
    """Whether `doc` holds a Rust code block whose last shown line asserts."""
    inside, lang, last = False, "", None
    for line in doc:
        s = line.strip()
        if s.startswith("```"):
            if not inside:
                inside, lang, last = True, s[3:].strip(), None
            else:
                inside = False
                rust = lang in ("", "rust", "no_run") or lang.startswith(("rust,", "no_run"))
                if rust and last is not None and last.startswith(("assert", "debug_assert")):
                    return True
            continue
        if inside and s and not s.startswith("# ") and s != "#":
            last = s
    return False


def layer_of(rel):
    return rel.split("/")[0].replace(".rs", "")


def main():
    counts, missing = {}, {}
    for root, _, names in os.walk(SRC):
        for name in sorted(names):
            if not name.endswith(".rs"):
                continue
            path = os.path.join(root, name)
            rel = os.path.relpath(path, SRC).replace(os.sep, "/")
            lines = strip_test_modules(open(path, encoding="utf-8").read().split("\n"))
            layer = layer_of(rel)
            for i, line in enumerate(lines):
                m = PUB_FN.match(line)
                if not m:
                    continue
                doc = doc_above(lines, i)
                text = " ".join(doc)
                ok = has_example(doc) or "example at [" in text or "examples at [" in text
                total, good = counts.get(layer, (0, 0))
                counts[layer] = (total + 1, good + int(ok))
                if not ok:
                    missing.setdefault(layer, []).append(f"{rel}:{i + 1} {m.group(1)}")
    print(f"{'layer':<14} {'functions':>9} {'examples':>9} {'share':>7}")
    all_total = all_good = 0
    for layer in sorted(counts):
        total, good = counts[layer]
        all_total, all_good = all_total + total, all_good + good
        print(f"{layer:<14} {total:>9} {good:>9} {good / total:>7.1%}")
    print(f"{'crate':<14} {all_total:>9} {all_good:>9} {all_good / all_total:>7.1%}")
    if "--missing" in sys.argv:
        want = sys.argv[sys.argv.index("--missing") + 1]
        for entry in missing.get(want, []):
            print("  " + entry)
    if "--check" in sys.argv:
        hl = counts.get("high_level", (1, 0))
        shares = {"high_level": hl[1] / hl[0], "crate": all_good / all_total}
        low = [k for k, v in TARGETS.items() if shares[k] < v]
        if low:
            print("doc examples below target: " + ", ".join(
                f"{k} {shares[k]:.1%} < {TARGETS[k]:.0%}" for k in low))
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

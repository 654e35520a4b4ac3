#!/usr/bin/python3
"""Checks engine/dump/fathom-dump.schema.json against the dumps the reader accepts and refuses.

- Every good dump (samples/*.fathom.json, tests/data/*.fathom.json, and samples/bad-run/*, which
  load fine and fail only when run) validates.
- The malformed dumps in samples/bad/ whose problem is structural (SCHEMA_REJECTS) are rejected.
- Every other file in samples/bad/ is either not JSON at all (NOT_JSON) or structurally valid,
  its problem being one only the reader sees (a dangling reference, a cycle, an overflow, ...):
  the schema must accept those, so it stays exactly as strict as engine/dump/README.md says.

Usage: validate_dumps.py SOURCE_ROOT. Exits 77 (ctest's skip code here) without python3-jsonschema.
"""
import glob
import json
import os
import sys

try:
    import jsonschema
except ImportError:
    print("skipped: /usr/bin/python3 has no jsonschema module (apt-get install -y python3-jsonschema)")
    sys.exit(77)

SCHEMA_REJECTS = {
    "top-level-array.json", "wrong-format.json", "wrong-version.json", "missing-version.json",
    "unknown-key.json", "no-graphs.json", "unknown-node-kind.json", "unknown-argument-tag.json",
    "bad-float-tag.json", "negative-size.json", "negative-stride.json", "float-size.json",
    "integer-out-of-int64-range.json", "invalid-dtype.json", "seed-and-data.json", "output-seed.json",
}
NOT_JSON = {
    "truncated.json", "empty.json", "not-json.json", "trailing-garbage.json", "nan-literal.json",
    "non-utf8-string.json", "deep-nesting.json",
}


def reject_constant(name):
    raise ValueError(f"{name} is not JSON")


def load(path):
    """The parsed document, or None when the file is not strict JSON (as the reader sees it)."""
    try:
        with open(path, "rb") as f:
            text = f.read().decode("utf-8")
        return json.loads(text, parse_constant=reject_constant)
    except (ValueError, RecursionError, UnicodeDecodeError):
        return None


def main(root):
    os.chdir(root)
    with open("engine/dump/fathom-dump.schema.json") as f:
        schema = json.load(f)
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    failures, checked = [], 0

    good = sorted(glob.glob("samples/*.fathom.json") + glob.glob("tests/data/*.fathom.json")
                  + [p for p in glob.glob("samples/bad-run/*") if not p.endswith("README.md")])
    for path in good:
        checked += 1
        doc = load(path)
        if doc is None:
            failures.append(f"{path}: not JSON")
            continue
        errors = list(validator.iter_errors(doc))
        if errors:
            e = errors[0]
            failures.append(f"{path}: rejected at /{'/'.join(map(str, e.absolute_path))}: {e.message[:200]}")

    bad = sorted(p for p in glob.glob("samples/bad/*") if not p.endswith("README.md"))
    for path in bad:
        checked += 1
        name = os.path.basename(path)
        doc = load(path)
        if doc is None:
            if name not in NOT_JSON:
                failures.append(f"{path}: not JSON, but not listed in NOT_JSON")
            continue
        if name in NOT_JSON:
            failures.append(f"{path}: listed in NOT_JSON but parses")
            continue
        valid = validator.is_valid(doc)
        if name in SCHEMA_REJECTS and valid:
            failures.append(f"{path}: the schema accepts it, but its problem is structural")
        elif name not in SCHEMA_REJECTS and not valid:
            e = next(validator.iter_errors(doc))
            failures.append(f"{path}: the schema rejects it ({e.message[:120]}), but only the reader should; "
                            "add it to SCHEMA_REJECTS if the schema is meant to catch this")

    for line in failures:
        print("FAIL:", line)
    print(f"{checked} files checked ({len(good)} good dumps, {len(bad)} in samples/bad): {len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "."))

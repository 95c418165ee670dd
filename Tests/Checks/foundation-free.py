#!/usr/bin/env python3
"""Holds the rule of docs/ARCHITECTURE.md: the modules the gateway is made
of import FoundationEssentials, never Foundation. Foundation is allowed only
in the `#else` branch of `#if canImport(FoundationEssentials)`, where
FoundationEssentials does not exist.

The modules are read from Package.swift (`swift package describe`): the
Gateway target and every target of this package it depends on, directly or
not. Run by `make test`; prints each offending import and exits 1.

usage: Tests/Checks/foundation-free.py [TARGET]   (default: Gateway)
"""
import json
import os
import re
import subprocess
import sys

root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
top = sys.argv[1] if len(sys.argv) > 1 else "Gateway"
package = json.loads(subprocess.run(["swift", "package", "describe", "--type", "json"], cwd=root,
                                    check=True, capture_output=True, text=True).stdout)
targets = {target["name"]: target for target in package["targets"]}
if top not in targets:
    sys.exit(f"foundation-free: no target {top} in Package.swift")

closure, pending = set(), [top]
while pending:
    name = pending.pop()
    if name in closure or name not in targets:
        continue
    closure.add(name)
    pending.extend(targets[name].get("target_dependencies", []))

importing = re.compile(r"^\s*(@\w+\s+)*((public|internal|package|private|fileprivate)\s+)?import\s+((class|struct|enum|func|protocol|typealias|var|let)\s+)?Foundation(\.\w+)?\s*(//.*)?$")
problems = []
for name in sorted(closure):
    path = os.path.join(root, targets[name]["path"])
    for directory, _, files in os.walk(path):
        for file in sorted(files):
            if not file.endswith(".swift"):
                continue
            full = os.path.join(directory, file)
            lines = open(full, encoding="utf-8").read().split("\n")
            for number, line in enumerate(lines):
                if importing.match(line):
                    before = [l.strip() for l in lines[:number] if l.strip()]
                    guarded = len(before) >= 3 and before[-1] == "#else" and before[-2].startswith("import FoundationEssentials") \
                        and before[-3] == "#if canImport(FoundationEssentials)"
                    if not guarded:
                        problems.append(f"{os.path.relpath(full, root)}:{number + 1}: {line.strip()}")

if problems:
    print(f"foundation-free: {top}'s modules ({', '.join(sorted(closure))}) must import FoundationEssentials, not Foundation;")
    print("write `#if canImport(FoundationEssentials) / import FoundationEssentials / #else / import Foundation / #endif` (docs/ARCHITECTURE.md):")
    print("\n".join("  " + p for p in problems))
    sys.exit(1)
print(f"foundation-free: {len(closure)} modules of {top} import FoundationEssentials only: {', '.join(sorted(closure))}")

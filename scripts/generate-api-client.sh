#!/usr/bin/env bash
# Regenerates the committed Swift code of the API from its one contract, Sources/APIContract/openapi.json, with
# swift-openapi-generator 1.14.3: the contract's types (Sources/LivePushAPITypes/Types.swift), which the server,
# the client and LivePushKit share, and the client (Sources/LivePushAPIClient/Client.swift), which imports them.
# Each folder's openapi-generator-config.yaml says what the generator writes there.
#
# The generator is built in its own scratch folder, .build-openapi-generator/ (git-ignored), never in the
# package's .build: the package itself does not depend on the generator, so a clean build of LivePush does not
# compile it, OpenAPIKit or Yams. Run this after editing the contract and commit the result; CI (.ci/run)
# runs it too and fails when `git diff` shows the committed files of either folder differ from what the contract
# generates.
set -euo pipefail
cd "$(dirname "$0")/.."

version=1.14.3
tool=.build-openapi-generator
document=Sources/APIContract/openapi.json
types=Sources/LivePushAPITypes
client=Sources/LivePushAPIClient

mkdir -p "$tool"
cat >"$tool/Package.swift" <<MANIFEST
// swift-tools-version:6.1
// Written by scripts/generate-api-client.sh: pins the generator CLI, built here and nowhere else.
import PackageDescription

let package = Package(
    name: "OpenAPIGeneratorTool",
    dependencies: [.package(url: "https://github.com/apple/swift-openapi-generator.git", exact: "$version")]
)
MANIFEST

echo "== building swift-openapi-generator $version in $tool" >&2
swift build --package-path "$tool" --product swift-openapi-generator >&2
generator="$(swift build --package-path "$tool" --show-bin-path)/swift-openapi-generator"

# The generator's input: the contract less its `not` clauses, with the content-state shape (x-check) free-form and with
# the number form of an expiration (which the document leaves out). The `not` clauses state cross-field rules of the push bodies
# (Update, End, Start: not sound with alert.sound, a priority that agrees with importance), which the server
# checks and the fuzzer exercises from the served file; swift-openapi-generator 1.14.3 skips any schema with a
# `not` (and every operation body that refers to it), and a generated client checks no rule of a body anyway.
# Every unnamed free-form object refers to a schema JSONObject of the input's own, so that the configuration can
# make it, with ContentState and ContentStateShape, LiveActivity's JSONValue (a type override takes named schemas
# only). The served file is left as it is.
input="$tool/openapi.json"
python3 - "$document" "$input" <<'PY'
import json, sys

def strip(node, key=None):
    if isinstance(node, dict):
        if key != "properties":  # a map of property names, not a schema
            node.pop("not", None)
        for name, value in node.items():
            strip(value, name)
    elif isinstance(node, list):
        for value in node:
            strip(value)

def expiration_forms(node):
    # The expiration check (x-check: expiration) takes Unix seconds as a number too; the document lists only the
    # relative form (the window moves with now, which a schema cannot state). The generated type takes every form
    # the server accepts, so that a body the contract accepts decodes as its generated type.
    if isinstance(node, dict):
        if node.get("x-check") == "expiration":
            node["oneOf"] = [{"type": "number", "description": "Unix seconds."}] + node["oneOf"]
        for value in node.values():
            expiration_forms(value)
    elif isinstance(node, list):
        for value in node:
            expiration_forms(value)

def free_checked(node):
    # A schema checked in code (x-check) reaches the client as a free-form object: its keywords describe it for
    # schemathesis and refer to themselves (the content-state shape's nodes), and the server checks it whole.
    if isinstance(node, dict):
        if "x-check" in node and node.get("type") == "object":
            for keyword in ("properties", "additionalProperties", "required"):
                node.pop(keyword, None)
        for value in node.values():
            free_checked(value)
    elif isinstance(node, list):
        for value in node:
            free_checked(value)

def free_form(node):
    # A free-form object: an object whose members the schema leaves open.
    return (isinstance(node, dict) and node.get("type") == "object" and "x-check" not in node
            and not any(keyword in node for keyword in ("properties", "additionalProperties", "allOf", "anyOf", "oneOf")))

def named_free_forms(node):
    # Every unnamed free-form object (attributes, a stored content-state or shape) refers to JSONObject instead, which
    # the configuration overrides (as ContentState and ContentStateShape) with our JSON value: the server takes it whole
    # from the body it parsed. Only its description is lost; a nullable one is an optional member all the same.
    if isinstance(node, dict):
        for name, value in node.items():
            if name in ("example", "examples", "default", "enum") or name.startswith("x-"):
                continue  # values, not schemas
            if free_form(value):
                node[name] = {"$ref": "#/components/schemas/JSONObject"}
            else:
                named_free_forms(value)
    elif isinstance(node, list):
        for index, value in enumerate(node):
            if free_form(value):
                node[index] = {"$ref": "#/components/schemas/JSONObject"}
            else:
                named_free_forms(value)

with open(sys.argv[1], encoding="utf-8") as source:
    document = json.load(source)
strip(document)
expiration_forms(document)
free_checked(document)
schemas = document["components"]["schemas"]
# Referred to only from the checked shape's keywords, which are gone.
schemas.pop("ContentStateShapeNode", None)
for name, schema in schemas.items():
    if not free_form(schema):
        named_free_forms(schema)
named_free_forms(document["paths"])
schemas["JSONObject"] = {"type": "object", "description": "A JSON object whose members the contract leaves open."}
with open(sys.argv[2], "w", encoding="utf-8") as target:
    json.dump(document, target, ensure_ascii=False, indent=1)
PY

for target in "$types" "$client"; do
    "$generator" generate "$input" --config "$target/openapi-generator-config.yaml" --output-directory "$target"
done
# One Types.swift, as the generator wrote before it split its output by namespace: each of the split files
# repeats the same `public import`s, and Swift 6.3 warns about those a file does not use (the generator's
# `@diagnose(UnusedImportAccess, as: ignored)` takes effect from Swift 6.4 on). Joined, every import is used.
python3 - "$types" <<'PY'
import pathlib, re, sys

target = pathlib.Path(sys.argv[1])
order = ["Types.swift", "Types+Components.swift", "Types+Operations.swift", "Types+Components+Schemas.swift",
         "Types+Components+Parameters.swift", "Types+Components+RequestBodies.swift",
         "Types+Components+Responses.swift", "Types+Components+Headers.swift"]
found = sorted(path.name for path in target.glob("Types*.swift"))
if sorted(order) != found:
    sys.exit(f"unexpected generated files: {found}")
importing = re.compile(r"^(#if |#endif|@diagnose\(|(@_spi\(Generated\) )?(public |package )?import )")
joined, header = [], None
for name in order:
    lines = (target / name).read_text(encoding="utf-8").splitlines(keepends=True)
    end = max(index for index, line in enumerate(lines[:40]) if importing.match(line)) + 1
    if header is None:
        header = lines[:end]
    elif lines[:end] != header:
        sys.exit(f"{name} imports differ from Types.swift's")
    joined += lines[end:]
    (target / name).unlink()
(target / "Types.swift").write_text("".join(header + joined), encoding="utf-8")
PY
echo "== generated $types/Types.swift and $client/Client.swift from $document" >&2

#!/usr/bin/env python3
"""Validates a JSON document against a JSON Schema (draft 4 to 2020-12, chosen by the schema's $schema).

usage: validate.py SCHEMA DOCUMENT
Exit 0 when the document is valid; 1 with every error (path: message) on stderr when it is not; 2 when a file
cannot be read or the schema itself is invalid.
"""
import json
import sys

import jsonschema


def main() -> int:
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    try:
        with open(sys.argv[1], encoding="utf-8") as handle:
            schema = json.load(handle)
        with open(sys.argv[2], encoding="utf-8") as handle:
            document = json.load(handle)
        validator_class = jsonschema.validators.validator_for(schema)
        validator_class.check_schema(schema)
    except (OSError, ValueError, jsonschema.SchemaError) as error:
        print(f"cannot validate: {error}", file=sys.stderr)
        return 2
    errors = sorted(validator_class(schema).iter_errors(document), key=lambda e: list(e.absolute_path))
    for error in errors:
        path = "/".join(str(part) for part in error.absolute_path) or "(root)"
        print(f"{sys.argv[2]}: {path}: {error.message}", file=sys.stderr)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())

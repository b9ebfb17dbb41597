#!/bin/sh
set -eu
for f in "$@"; do
    printf '%s\n' "$f"
done

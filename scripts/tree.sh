#!/bin/bash
# The git kernel tree: pristine base + the series, ready to build.
. "$(dirname "$0")/lib.sh"
step "kernel source ($(basename "$TREE"))" "$TOP/scripts/get-source.sh"
step "apply series" "$TOP/scripts/apply.sh"

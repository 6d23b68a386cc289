#!/bin/bash
# Check that every option a fragment asks for is in a .config.
# Usage: config-check.sh FRAGMENT CONFIG
frag=$1 config=$2 bad=0
while IFS= read -r line; do
	case "$line" in
	CONFIG_*=*)
		opt=${line%%=*}
		grep -qxF "$line" "$config" || {
			echo "error: $opt: asked for '$line', .config has '$(grep -E "^(# )?$opt[= ]" "$config" || echo nothing)'" >&2
			bad=1
		} ;;
	"# CONFIG_"*" is not set")
		opt=${line#\# }; opt=${opt%% *}
		grep -q "^$opt=" "$config" && { echo "error: $opt: asked to be off, but it is on" >&2; bad=1; } ;;
	esac
done <"$frag"
exit $bad

#!/usr/bin/env bash
# check-layers.sh -- checks every #include "..." under src/ against the layer
# order of src/layers.txt.
#
# Usage: scripts/check-layers.sh [SRC_DIR]     (default: the src/ beside
#                                               this script)
#
# src/layers.txt lists the layers bottom first, one "name: deps" a line.  A
# file of layer L (the first directory of its path under SRC_DIR) may
# include the headers of L itself and of every layer reachable from L
# through the deps; an include of any other layer runs up (that layer builds
# on L) or sideways (neither builds on the other).  A quoted include without
# a directory ("internal.h") is a header of the file's own directory.
#
# Prints one line per offence, "FILE:LINE: includes "HEADER": why", and
# exits 1 when there is any, 0 when there is none, 2 when the layer list
# itself is unusable (a dep on a layer not declared before it).  A layer
# declared without a directory (not written yet) is no offence.
set -u
src=${1:-$(cd "$(dirname "$0")/../src" && pwd)}
list=$src/layers.txt
if [[ ! -r $list ]]; then
  echo "check-layers: cannot read $list" >&2
  exit 2
fi

declare -A deps=()  # layer -> its direct deps, space-separated
declare -A below=() # layer -> " a b c " every layer it builds on
order=()
lineno=0
while IFS= read -r line || [[ -n $line ]]; do
  lineno=$((lineno + 1))
  line=${line%%#*}
  [[ $line =~ ^[[:space:]]*$ ]] && continue
  if [[ ! $line =~ ^[[:space:]]*([A-Za-z0-9_]+)[[:space:]]*:(.*)$ ]]; then
    echo "check-layers: $list:$lineno: expected 'name: deps'" >&2
    exit 2
  fi
  name=${BASH_REMATCH[1]}
  if [[ -n ${deps[$name]+x} ]]; then
    echo "check-layers: $list:$lineno: layer '$name' declared twice" >&2
    exit 2
  fi
  reach=" "
  for d in ${BASH_REMATCH[2]}; do
    if [[ -z ${deps[$d]+x} ]]; then
      echo "check-layers: $list:$lineno: layer '$name' builds on '$d', which is not declared before it" >&2
      exit 2
    fi
    reach+="$d ${below[$d]# }"
  done
  # deduplicate
  uniq=" "
  for d in $reach; do
    [[ $uniq == *" $d "* ]] || uniq+="$d "
  done
  deps[$name]=${BASH_REMATCH[2]}
  below[$name]=$uniq
  order+=("$name")
done <"$list"
if [[ ${#order[@]} -eq 0 ]]; then
  echo "check-layers: $list declares no layer" >&2
  exit 2
fi

offences=0
offend() {
  echo "$1"
  offences=$((offences + 1))
}

# every source directory must be a declared layer
for d in "$src"/*/; do
  [[ -d $d ]] || continue
  l=$(basename "$d")
  [[ -n ${deps[$l]+x} ]] || offend "src/$l/: a directory that src/layers.txt does not declare"
done

while IFS= read -r -d '' file; do
  rel=${file#"$src"/}
  layer=${rel%%/*}
  [[ -n ${deps[$layer]+x} ]] || continue # reported above
  n=0
  while IFS= read -r line || [[ -n $line ]]; do
    n=$((n + 1))
    [[ $line =~ ^[[:space:]]*#[[:space:]]*include[[:space:]]*\"([^\"]+)\" ]] || continue
    header=${BASH_REMATCH[1]}
    [[ $header == */* ]] || continue # own directory
    to=${header%%/*}
    where="src/$rel:$n: includes \"$header\""
    if [[ $to == "$layer" || ${below[$layer]} == *" $to "* ]]; then
      continue
    elif [[ -z ${deps[$to]+x} ]]; then
      offend "$where: '$to' is not a layer of src/layers.txt"
    elif [[ ${below[$to]} == *" $layer "* ]]; then
      offend "$where: upward: $to builds on $layer, so $layer may not include $to"
    else
      offend "$where: sideways: $layer does not build on $to (${layer}'s layers:${below[$layer]% })"
    fi
  done <"$file"
done < <(find "$src" -mindepth 2 -type f \( -name '*.c' -o -name '*.h' \) -print0 | sort -z)

if [[ $offences -gt 0 ]]; then
  echo "check-layers: $offences include(s) against src/layers.txt" >&2
  exit 1
fi
exit 0

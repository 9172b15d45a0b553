# experiments/study-lib.sh -- sourced by every study script
# (experiments/*/run.sh): the help, the check for the nickar binary, the
# options of the studies that evolve, rate and play in steps (ayo2004,
# davis-kendall-2002, strategies), the record of what each step cost (wall
# and CPU seconds, peak memory, measured without any timing program), and
# the choice between replacing and resuming a run file.  The caller sets
# NICKAR (and OUT) first.

# study_help SCRIPT: prints SCRIPT's header comment (line 2 to the line
# before `set -euo`), without the comment marks.
study_help() { sed -n '2,/^set -euo/p' "$1" | sed '$d' | sed 's/^# \{0,1\}//'; }

# study_need_nickar: exit 2, naming it, unless $NICKAR can run.
study_need_nickar() {
  [ -x "$NICKAR" ] || { echo "run.sh: no nickar binary at $NICKAR (build first, or set NICKAR)" >&2; exit 2; }
}

# study_args SCRIPT ARGS...: quick=1 for --quick, cont=1 for --continue;
# -h/--help prints SCRIPT's header comment; anything else is exit 2. Then
# checks that $NICKAR can run.
study_args() {
  local self=$1 a
  shift
  quick=0
  cont=0
  for a in "$@"; do
    case $a in
      --quick) quick=1 ;;
      --continue) cont=1 ;;
      -h|--help) study_help "$self"; exit 0 ;;
      *) echo "run.sh: unknown argument '$a' (only --quick, --continue)" >&2; exit 2 ;;
    esac
  done
  study_need_nickar
}

# study_start: a fresh $OUT/times.tsv, except that with --continue the
# evolutions' lines stay (that cost was spent; their runs are resumed);
# the ratings and matches are played again, so their lines go.
study_start() {
  mkdir -p "$OUT"
  rm -f "$OUT/matches.jsonl" "$OUT/ratings.jsonl"
  if [ "$cont" = 1 ] && [ -f "$OUT/times.tsv" ]; then
    grep '^evolve' "$OUT/times.tsv" >"$OUT/times.tsv.new" || true
    mv "$OUT/times.tsv.new" "$OUT/times.tsv"
  else
    rm -f "$OUT/times.tsv"
  fi
}

# keep FILE: the evolve option for a run file: --resume with --continue
# when the file exists (to more generations if they were raised), else
# --force.
keep() { if [ "$cont" = 1 ] && [ -f "$1" ]; then echo --resume; else echo --force; fi; }

# measure FILE CMD...: runs CMD and writes to FILE its wall seconds, user
# and system CPU seconds and peak resident memory in KB, one line
# ("%e %U %S %M" of GNU time), with Python's standard library alone
# (timecmd.py), so that no timing program need be installed.
STUDY_LIB_DIR=$(dirname "${BASH_SOURCE[0]}")
measure() { /usr/bin/python3 "$STUDY_LIB_DIR/timecmd.py" "$@"; }

# study_cpu NAME: sets NAME to the user + system CPU seconds of this
# shell's finished children so far ("%.2f"), from bash's `times`, which
# must run in this shell (a subshell would see none of them).
study_cpu() {
  local f
  f=$(mktemp)
  times >"$f"
  printf -v "$1" '%s' "$(tail -1 "$f" | awk '{ s = 0; for (i = 1; i <= 2; i++) { split($i, a, /[ms]/); s += a[1] * 60 + a[2] } printf "%.2f", s }')"
  rm -f "$f"
}

# study_mark: sets CPU0 (user + system CPU seconds of this shell's children
# so far, study_cpu) and WALL0 (the time), the start of a step that
# study_account records.
study_mark() {
  study_cpu CPU0
  WALL0=$(date +%s.%N)
}

# study_account FILE FIELD...: appends to FILE the FIELDs, then the wall and
# CPU seconds since the last study_mark ("%.2f", tab-separated), and marks
# again.
study_account() {
  local f=$1 c0=$CPU0 w0=$WALL0
  shift
  study_mark
  printf '%s\t' "$@" >>"$f"
  awk -v w="$WALL0" -v w0="$w0" -v c="$CPU0" -v c0="$c0" \
    'BEGIN { printf "%.2f\t%.2f\n", w - w0, c - c0 }' >>"$f"
}

# study_timed_log TSV KEY STEP LOG CMD...: runs CMD with its output in LOG
# and appends KEY, STEP, its wall and CPU seconds and peak memory (KiB) to
# TSV; on a failure prints LOG and exits 1.
study_timed_log() {
  local tsv=$1 key=$2 step=$3 log=$4 tf
  shift 4
  tf=$(mktemp)
  if ! measure "$tf" "$@" >"$log" 2>&1; then
    echo "$(basename "$0"): $key: $step failed:" >&2
    cat "$log" >&2
    rm -f "$tf"
    exit 1
  fi
  printf '%s\t%s\t%s\n' "$key" "$step" "$(awk '{printf "%s\t%.2f\t%s", $1, $2 + $3, $4}' "$tf")" \
    >>"$tsv"
  rm -f "$tf"
}

# timed LABEL CMD...: runs CMD and appends LABEL, its wall and CPU seconds
# to $TIMES (default $OUT/times.tsv).
timed() {
  local label=$1 tf
  shift
  tf=$(mktemp)
  measure "$tf" "$@"
  printf '%s\t%s\n' "$label" "$(awk '{printf "%s\t%.2f", $1, $2 + $3}' "$tf")" >>"${TIMES:-$OUT/times.tsv}"
  rm -f "$tf"
}

# study_ensure_db DIR VARIANT SEEDS [THREADS-OPTION...]: builds VARIANT's
# endgame database to SEEDS seeds in DIR with `nickar tablebase build`,
# unless DIR/VARIANT.nktb already holds exactly that many; sets
# STUDY_DB_BUILT to 1 when it built one, 0 when it was there (for the
# caller's accounting).  A failed build fails as the command does.
study_ensure_db() {
  local dir=$1 variant=$2 seeds=$3
  shift 3
  STUDY_DB_BUILT=0
  if [ -f "$dir/$variant.nktb" ] && "$NICKAR" tablebase info "$dir/$variant.nktb" 2>/dev/null \
       | grep -qx "seeds: 0 to $seeds"; then
    return 0
  fi
  echo "$(basename "$(dirname "$0")"): building $variant's database to $seeds seeds in $dir" >&2
  "$NICKAR" tablebase build --variant "$variant" --seeds "$seeds" --output "$dir" "$@" >/dev/null
  STUDY_DB_BUILT=1
}

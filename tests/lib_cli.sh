# lib_cli.sh -- helpers for the shell tests of the nickar command
# (tests/test_cli_*.sh), sourced by them.  A test script gets the nickar
# binary as $1 and the source root as $2 (tests/CMakeLists.txt), counts
# passed and failed checks, and ends with `finish`, which prints
# "N passed, M failed" and fails when M > 0.
#
#   run ARGS...            runs nickar ARGS; sets $rc, $out, $err (texts)
#   check DESC CMD...      passes when CMD succeeds
#   expect_ok ARGS...      nickar ARGS exits 0 and writes nothing on stderr
#   expect_error CMD TEXT ARGS...
#                          nickar ARGS exits 2, writes nothing on stdout and
#                          one line on stderr that starts "nickar CMD: " and
#                          contains TEXT
#   bad_player SPEC TEXT   match and tournament refuse player SPEC (exit 2,
#                          one line holding TEXT); no tournament file
#   same_run A.h5 B.h5     two run files hold the same complete generations:
#                          populations, fitness, games, benchmark and stats
#                          rows bit for bit (wall times aside)
#   json PYTHON            runs PYTHON with `out` bound to the last stdout;
#                          `objs` holds its JSON lines, parsed; passes when
#                          PYTHON's assertions hold

set -u
if [[ $# -lt 2 ]]; then
  echo "usage: $0 NICKAR_BINARY SOURCE_ROOT" >&2
  exit 2
fi
nickar=$1
srcdir=$2
python=/usr/bin/python3
[[ -x $python ]] || python=python3
passed=0
failed=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

pass() { passed=$((passed + 1)); }
fail() {
  local what="$*"
  failed=$((failed + 1))
  echo "FAIL: ${what:0:300}"
  [[ -n ${out+x} && -n $out ]] && echo "  stdout: ${out:0:400}"
  [[ -n ${err+x} && -n $err ]] && echo "  stderr: ${err:0:400}"
  return 0
}

run() {
  "$nickar" "$@" >"$tmp/out" 2>"$tmp/err"
  rc=$?
  out=$(cat "$tmp/out")
  err=$(cat "$tmp/err")
}

check() {
  local desc=$1
  shift
  if "$@"; then pass; else fail "$desc"; fi
}

expect_ok() {
  run "$@"
  if [[ $rc -eq 0 && -z $err ]]; then
    pass
  else
    fail "nickar $* -> exit $rc (want 0, no stderr)"
  fi
}

# expect_exit WANT CMD TEXT ARGS...: nickar ARGS (stdin empty) exits WANT
# with one line on stderr that starts "nickar CMD: " and contains TEXT.
expect_exit() {
  local want=$1 cmd=$2 text=$3
  shift 3
  run "$@" </dev/null
  local lines
  lines=$(wc -l <"$tmp/err")
  if [[ $rc -ne $want ]]; then
    fail "nickar $* -> exit $rc, want $want"
  elif [[ $want -eq 2 && -n $out ]]; then
    fail "nickar $* -> wrote on stdout, want nothing"
  elif [[ $lines -ne 1 ]]; then
    fail "nickar $* -> $lines lines on stderr, want 1"
  elif [[ $err != "nickar $cmd: "* ]]; then
    fail "nickar $* -> message does not start 'nickar $cmd: '"
  elif [[ $err != *"$text"* ]]; then
    fail "nickar $* -> message lacks '$text'"
  else
    pass
  fi
}

# expect_error CMD TEXT ARGS...: bad input: exit 2, nothing on stdout, one
# line on stderr as expect_exit says.
expect_error() {
  expect_exit 2 "$@"
}

# bad_player SPEC TEXT: match and tournament refuse player SPEC with
# exit 2 and one line holding TEXT (match's also names the spec), and the
# tournament writes no file.
bad_player() {
  local spec=$1 text=$2
  expect_error match "player spec '$spec'" match --variant abapa --games 2 "$spec" greedy
  check "the message says what ($text)" grep -qF "$text" "$tmp/err"
  expect_error tournament "$text" tournament --variant abapa --games 2 \
    --output "$tmp/bad.h5" "$spec" greedy
  check "no tournament file for $spec" test ! -e "$tmp/bad.h5"
}

# tiny_config FILE GENERATIONS OPPONENTS: a small Abapa run (seed 7,
# depth-1 positional players, 4 of them in a round robin, the benchmark
# every generation, 2 games against each of OPPONENTS).
tiny_config() {
  cat >"$1" <<INI
[experiment]
name = tiny
seed = 7
variant = abapa
generations = $2
[player]
features = positional
depth = 1
[population]
size = 4
[fitness]
schedule = round-robin
openings = 2
[benchmark]
every = 1
games = 2
opponents = $3
INI
}

json() {
  if "$python" -c '
import json, sys
out = open(sys.argv[1]).read()
objs = [json.loads(l) for l in out.splitlines() if l.strip()]
exec(sys.argv[2])
' "$tmp/out" "$1"; then
    pass
  else
    fail "JSON check: $1"
  fi
}

finish() {
  echo "$passed passed, $failed failed"
  [[ $failed -eq 0 ]]
  exit $?
}

# Run files A and B hold the same complete generations, bit for bit.
same_run() {
  "$python" - "$1" "$2" <<'PY'
import sys, h5py
a, b = h5py.File(sys.argv[1], "r"), h5py.File(sys.argv[2], "r")
ga = int(a["checkpoint"].attrs["generation"]) + 1
gb = int(b["checkpoint"].attrs["generation"]) + 1
assert ga == gb, (ga, gb)
for name in ["genome", "fitness", "wins", "draws", "losses", "id", "parents"]:
    x, y = a["population/" + name][:ga], b["population/" + name][:gb]
    assert x.tobytes() == y.tobytes(), name
for name in ["games", "benchmark", "stats"]:
    if name in a and name in b:
        x, y = a[name][:], b[name][:]
        for field in x.dtype.names:  # wall-clock times differ; the rest may not
            if field not in ("wall_seconds", "play_seconds", "outside_seconds"):
                assert x[field].tobytes() == y[field].tobytes(), (name, field)
PY
}

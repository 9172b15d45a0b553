#!/usr/bin/env bash
# test_alloc_fail.sh -- every allocation of nickar's own code can fail
# cleanly.  NICKAR_FAIL_ALLOC=N makes allocation N and every later one fail
# (src/cli/main.c, src/base/alloc.h); NICKAR_ALLOC_COUNT=1 prints how many
# allocations a command made.  For a small `evolve`, a `--resume` of a run,
# a small `match`, a small `ciao`, and a small `tournament` and its `--resume` (one thread each, so that "the Nth allocation" is the
# same every time), N walks over every allocation the command makes --
# every one while there are at most WALK_ALL of them, else the first 50 and
# an even spread over the rest (the output says which).  Each failing run
# must:
#   - exit 1 with exactly one line on stderr, "nickar CMD: ..." naming the
#     failure ("out of memory");
#   - leak nothing (built with the asan preset, LeakSanitizer makes a leak
#     a non-zero exit and more lines on stderr, so the first check fails);
#   - leave the run file absent, or resumable to the same run as one never
#     interrupted (bit for bit, as same_run compares).
# Usage: test_alloc_fail.sh NICKAR_BINARY SOURCE_ROOT
source "$(dirname "$0")/lib_cli.sh"

WALK_ALL=400 # walk every allocation up to this count

cfg=$tmp/tiny.ini
tiny_config "$cfg" 3 'random; greedy'
evolve_args=(evolve "$cfg" --quiet --threads 1)

# count ARGS...: the allocations of nickar ARGS (which must succeed).
count() {
  NICKAR_ALLOC_COUNT=1 "$nickar" "$@" >"$tmp/out" 2>"$tmp/err"
  local rc=$?
  local line
  line=$(grep -E '^nickar: [0-9]+ allocations$' "$tmp/err")
  if [[ $rc -ne 0 || -z $line ]]; then
    echo "cannot count the allocations of nickar $* (exit $rc): $(head -c 300 "$tmp/err")" >&2
    echo 0
    return
  fi
  line=${line#nickar: }
  echo "${line% allocations}"
}

# points TOTAL: the N to walk, one a line.
points() {
  local total=$1 n
  if [[ $total -le $WALK_ALL ]]; then
    seq 1 "$total"
    return
  fi
  seq 1 50
  local rest=$((WALK_ALL - 50))
  for ((n = 1; n <= rest; n++)); do
    echo $((50 + (total - 50) * n / rest))
  done
}

# The wording that names an allocation failure.
oom_text='out of memory'

# fails_cleanly CMD N ARGS...: nickar ARGS with allocation N failing exits
# 1 with one line "nickar CMD: ..." on stderr that names the failure.
fails_cleanly() {
  local cmd=$1 n=$2
  shift 2
  NICKAR_FAIL_ALLOC=$n "$nickar" "$@" </dev/null >"$tmp/out" 2>"$tmp/err"
  rc=$?
  lines=$(wc -l <"$tmp/err")
  err=$(head -c 2000 "$tmp/err")
  out=
  if [[ $rc -ne 1 ]]; then
    fail "allocation $n of nickar $*: exit $rc, want 1"
  elif [[ $lines -ne 1 ]]; then
    fail "allocation $n of nickar $*: $lines lines on stderr, want 1"
  elif [[ $err != "nickar $cmd: "* ]] || ! grep -qE "$oom_text" <<<"$err"; then
    fail "allocation $n of nickar $*: the message is not 'nickar $cmd: ...' naming the failure"
  else
    pass
    return 0
  fi
  return 1
}

# the reference runs
run "${evolve_args[@]}" --output "$tmp/ref.h5"
check "the reference run exits 0 ($err)" test "$rc" -eq 0
run "${evolve_args[@]}" --output "$tmp/two.h5" --set experiment.generations=2
check "a 2-generation run to resume exits 0 ($err)" test "$rc" -eq 0

# pairs of run files that must be the same run, compared at the end in one go
: >"$tmp/pairs"

# resumable FILE WHAT: FILE (left by a failed run) is absent, or --resume
# makes it the reference run; the comparison is queued.
resumable() {
  local f=$1 what=$2
  [[ -e $f ]] || return 0
  run "${evolve_args[@]}" --output "$f" --resume
  if [[ $rc -ne 0 ]]; then
    fail "$what: resuming the run file it left: exit $rc"
    return
  fi
  pass
  printf '%s\t%s\n' "$f" "$what" >>"$tmp/pairs"
}

# ===== evolve from nothing =====
total=$(count "${evolve_args[@]}" --output "$tmp/count.h5")
check "evolve makes allocations to walk ($total)" test "$total" -gt 0
echo "evolve: $total allocations; walking $(points "$total" | wc -l) of them"
for n in $(points "$total"); do
  d=$tmp/e$n
  mkdir -p "$d"
  fails_cleanly evolve "$n" "${evolve_args[@]}" --output "$d/run.h5"
  resumable "$d/run.h5" "evolve with allocation $n failing"
done

# ===== evolve --resume of a 2-generation run =====
cp "$tmp/two.h5" "$tmp/count2.h5"
total=$(count "${evolve_args[@]}" --output "$tmp/count2.h5" --resume)
check "evolve --resume makes allocations to walk ($total)" test "$total" -gt 0
echo "evolve --resume: $total allocations; walking $(points "$total" | wc -l) of them"
for n in $(points "$total"); do
  d=$tmp/r$n
  mkdir -p "$d"
  cp "$tmp/two.h5" "$d/run.h5"
  fails_cleanly evolve "$n" "${evolve_args[@]}" --output "$d/run.h5" --resume
  if [[ -e $d/run.h5 ]]; then
    resumable "$d/run.h5" "evolve --resume with allocation $n failing"
  else
    fail "evolve --resume with allocation $n failing: the run file is gone"
  fi
done

# ===== match, one player's weights from the reference run =====
match_args=(match --variant abapa --games 4 --threads 1
  "ab:depth=1,features=positional,weights=$tmp/ref.h5@best" greedy)
total=$(count "${match_args[@]}")
check "match makes allocations to walk ($total)" test "$total" -gt 0
echo "match: $total allocations; walking $(points "$total" | wc -l) of them"
for n in $(points "$total"); do
  fails_cleanly match "$n" "${match_args[@]}"
done

# ===== ciao on the reference run: no analysis file after a failure =====
ciao_args=(ciao "$tmp/ref.h5" --games 2 --threads 1 --output "$tmp/ciao.h5")
total=$(count "${ciao_args[@]}")
check "ciao makes allocations to walk ($total)" test "$total" -gt 0
echo "ciao: $total allocations; walking $(points "$total" | wc -l) of them"
for n in $(points "$total"); do
  rm -f "$tmp/ciao.h5"
  fails_cleanly ciao "$n" "${ciao_args[@]}" &&
    check "ciao with allocation $n failing writes no analysis file" test ! -e "$tmp/ciao.h5"
done

# ===== tournament: a new one with a file, and its --resume =====
tour_args=(tournament --variant abapa --games 4 --threads 1 --quiet random greedy ab:depth=1)
total=$(count "${tour_args[@]}" --output "$tmp/tcount.h5")
check "tournament makes allocations to walk ($total)" test "$total" -gt 0
echo "tournament: $total allocations; walking $(points "$total" | wc -l) of them"
for n in $(points "$total"); do
  rm -f "$tmp/tour.h5" "$tmp/tour.h5.tmp"
  fails_cleanly tournament "$n" "${tour_args[@]}" --output "$tmp/tour.h5"
done
total=$(count "${tour_args[@]}" --output "$tmp/tcount.h5" --resume)
echo "tournament --resume: $total allocations; walking $(points "$total" | wc -l) of them"
for n in $(points "$total"); do
  fails_cleanly tournament "$n" "${tour_args[@]}" --output "$tmp/tcount.h5" --resume
done

# ===== the run files left behind are the reference run =====
npairs=$(wc -l <"$tmp/pairs")
echo "comparing $npairs resumed run files with the reference"
"$python" - "$tmp/ref.h5" "$tmp/pairs" >"$tmp/cmp" 2>&1 <<'PY'
import sys, h5py
def content(path):
    f = h5py.File(path, "r")
    g = int(f["checkpoint"].attrs["generation"]) + 1
    c = {"generations": g}
    for name in ["genome", "fitness", "wins", "draws", "losses", "id", "parents"]:
        c[name] = f["population/" + name][:g].tobytes()
    for name in ["games", "benchmark", "stats"]:
        if name in f:
            x = f[name][:]
            for field in x.dtype.names:  # wall-clock times differ; the rest may not
                if field not in ("wall_seconds", "play_seconds", "outside_seconds"):
                    c[name + "." + field] = x[field].tobytes()
    return c
ref = content(sys.argv[1])
bad = 0
for line in open(sys.argv[2]):
    path, what = line.rstrip("\n").split("\t")
    try:
        c = content(path)
        diff = sorted(k for k in set(ref) | set(c) if ref.get(k) != c.get(k))
    except Exception as e:
        diff = ["unreadable: %s" % e]
    if diff:
        bad += 1
        print("DIFF %s: %s" % (what, ", ".join(diff)))
    else:
        print("SAME")
PY
same=$(grep -c '^SAME$' "$tmp/cmp")
grep -v '^SAME$' "$tmp/cmp" | head -20
check "every resumed run file equals the reference run ($same of $npairs)" test "$same" -eq "$npairs"

finish

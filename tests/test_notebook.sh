# test_notebook.sh -- the analysis tools on a run file: scripts/plot_fitness.py
# and notebooks/run_overview.ipynb (executed with nbconvert); and on a
# tournament file: scripts/plot_tournament.py and the notebook's last cell.
#
#   bash tests/test_notebook.sh NICKAR_BINARY SOURCE_ROOT
#
# The main run file is a small real run made with the nickar binary (or the
# file named by $NICKAR_TEST_RUN); an edge-case file (one generation, no
# sigma, no games, no benchmark rows) is written by tests/make_fake_run.py.
# Uses only Debian's /usr/bin/python3 with python3-h5py, -numpy,
# -matplotlib, -nbformat, -ipykernel and jupyter-nbconvert, in a clean
# environment (no PYTHONPATH, no user site, a private kernelspec "python3"
# that runs /usr/bin/python3, private Jupyter/IPython/matplotlib dirs).
# Prints "N passed, M failed"; exits 1 when M > 0.

set -u
if [[ $# -lt 2 ]]; then
  echo "usage: $0 NICKAR_BINARY SOURCE_ROOT" >&2
  exit 2
fi
srcdir=$(cd "$2" && pwd) || exit 2
py=/usr/bin/python3
plot=$srcdir/scripts/plot_fitness.py
fake=$srcdir/tests/make_fake_run.py
notebook=$srcdir/notebooks/run_overview.ipynb
passed=0
failed=0
tmp=$(mktemp -d)
writer_pid=
cleanup() {
  [[ -n $writer_pid ]] && kill "$writer_pid" 2>/dev/null
  rm -rf "$tmp"
}
trap cleanup EXIT

pass() { passed=$((passed + 1)); }
fail() {
  failed=$((failed + 1))
  echo "FAIL: $*"
  [[ -s $tmp/out ]] && echo "  stdout: $(head -c 600 "$tmp/out")"
  [[ -s $tmp/err ]] &&
    echo "  stderr: $(sed 's/\x1b\[[0-9;]*m//g' "$tmp/err" | tail -n 8 | tail -c 1500)"
  return 0
}
finish() {
  echo "$passed passed, $failed failed"
  [[ $failed -eq 0 ]]
  exit
}

# A clean Python/Jupyter environment: Debian's python only.
unset PYTHONPATH PYTHONHOME VIRTUAL_ENV MPLBACKEND
export PYTHONNOUSERSITE=1
export PATH=/usr/bin:/bin
export MPLCONFIGDIR=$tmp/mpl
export JUPYTER_PATH=$tmp/jupyter
export JUPYTER_CONFIG_DIR=$tmp/jupyter-config
export JUPYTER_RUNTIME_DIR=$tmp/jupyter-runtime
export IPYTHONDIR=$tmp/ipython
export PYDEVD_DISABLE_FILE_VALIDATION=1
mkdir -p "$tmp/jupyter/kernels/python3"
cat >"$tmp/jupyter/kernels/python3/kernel.json" <<EOF
{"argv": ["$py", "-m", "ipykernel_launcher", "-f", "{connection_file}"],
 "display_name": "Python 3 (system)", "language": "python"}
EOF

# runpy ARGS...: $py ARGS, sets $rc; stdout/stderr in $tmp/out, $tmp/err.
runpy() {
  "$py" "$@" >"$tmp/out" 2>"$tmp/err"
  rc=$?
}

# Prerequisites: without them nothing below means anything.
if ! runpy -c 'import h5py, numpy, matplotlib, nbformat, nbconvert, ipykernel'; then
  fail "$py lacks a module (need python3-h5py, -numpy, -matplotlib," \
       "-nbformat, -ipykernel, jupyter-nbconvert)"
  finish
fi
pass
if [[ -x /usr/bin/jupyter-nbconvert ]]; then
  nbconvert=(/usr/bin/jupyter-nbconvert)
else
  nbconvert=("$py" -m nbconvert)
fi

# --- the run files ------------------------------------------------------------
# main: a real run ($NICKAR_TEST_RUN, else a small (mu+lambda)-ES run made
# here with nickar evolve, so that sigma, games and benchmark rows exist).
# edge: G=1, no sigma, no games, 0 benchmark rows, fixed-length feature names.
mkdir -p "$tmp/main" "$tmp/edge" "$tmp/live"
if [[ -n ${NICKAR_TEST_RUN:-} ]]; then
  run=$(cd "$(dirname "$NICKAR_TEST_RUN")" 2>/dev/null && pwd)/$(basename "$NICKAR_TEST_RUN")
  if [[ -f $run ]]; then pass; else fail "NICKAR_TEST_RUN=$NICKAR_TEST_RUN: no such file"; finish; fi
  echo "using run file $run"
else
  run=$tmp/main/run.h5
  nickar=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
  # The champion is graded against a small endgame database as well
  # (benchmark.tablebase): the plot and the notebook draw the grading.
  "$nickar" tablebase build --variant abapa --seeds 6 --output "$tmp/main/tb" >/dev/null 2>&1
  cat >"$tmp/main/small.ini" <<INI
[experiment]
name = notebook-test
seed = 3
variant = abapa
generations = 6
[player]
features = positional
depth = 1
[strategy]
kind = es-plus
mu = 2
lambda = 6
[fitness]
schedule = round-robin
[benchmark]
every = 2
games = 4
opponents = random; greedy
tablebase = $tmp/main/tb
tablebase_positions = 40
INI
  "$nickar" evolve "$tmp/main/small.ini" --output "$run" --quiet >"$tmp/main/log" 2>&1
  rc=$?
  if [[ $rc -eq 0 && -s $run ]]; then pass; else fail "nickar evolve (small run) -> exit $rc: $(head -c 300 "$tmp/main/log")"; finish; fi
fi
edge=$tmp/edge/run.h5
runpy "$fake" "$edge" --generations 1 --no-sigma --no-games --no-benchmark --fixed-strings
if [[ $rc -eq 0 && -s $edge ]]; then pass; else fail "make_fake_run.py (edge case) -> exit $rc"; fi

nickar_bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
nickar=$nickar_bin

# --- plot_fitness.py ------------------------------------------------------------
is_png() { [[ -s $1 ]] && [[ $(head -c 8 "$1" | od -An -tx1 | tr -d ' \n') == 89504e470d0a1a0a ]]; }

# expect_png DESC PNG ARGS...: plot_fitness.py ARGS exits 0, prints PNG, writes it.
expect_png() {
  local desc=$1 png=$2
  shift 2
  rm -f "$png"
  runpy "$plot" "$@"
  if [[ $rc -eq 0 && $(head -1 "$tmp/out") == "$png" ]] && is_png "$png"; then
    pass
  else
    fail "$desc: plot_fitness.py $* -> exit $rc, want 0, '$png' printed and written"
  fi
}
# expect_endgame PNG: the last plot_fitness.py also drew the endgame
# grading (OUT_endgame.png, its path on the second line), or with "none"
# printed one line and wrote no such file.
expect_endgame() {
  local eg=${1%.png}_endgame.png
  if [[ ${2:-} == none ]]; then
    if [[ $(wc -l <"$tmp/out") -eq 1 && ! -e $eg ]]; then pass; else
      fail "plot_fitness.py drew an endgame plot for a run without the grading"; fi
  elif [[ $(sed -n 2p "$tmp/out") == "$eg" ]] && is_png "$eg"; then
    pass
  else
    fail "plot_fitness.py: no endgame plot $eg for a run with benchmark.tablebase"
  fi
}
expect_png "explicit -o" "$tmp/main/curves.png" "$run" -o "$tmp/main/curves.png"
[[ -z ${NICKAR_TEST_RUN:-} ]] && expect_endgame "$tmp/main/curves.png"
expect_png "default output next to the run file, G=1" "$tmp/edge/fitness.png" "$edge"
expect_endgame "$tmp/edge/fitness.png" none
expect_png "-o a directory" "$tmp/main/fitness.png" "$run" -o "$tmp/main"

# A run that is still being written: another process holds the file open for
# writing (and HDF5's lock) and has extended /stats ahead of the population.
live=$tmp/live/run.h5
runpy "$fake" "$live" --generations 3
"$py" - "$live" "$tmp/live/ready" >/dev/null 2>&1 <<'EOF' &
import sys, time, h5py
f = h5py.File(sys.argv[1], "a")
s = f["stats"]
s.resize((s.shape[0] + 1,))
f.flush()
open(sys.argv[2], "w").close()
time.sleep(60)
EOF
writer_pid=$!
for _ in $(seq 100); do [[ -e $tmp/live/ready ]] && break; sleep 0.1; done
if [[ -e $tmp/live/ready ]]; then
  expect_png "run file open for writing" "$tmp/live/fitness.png" "$live"
else
  fail "the writer process did not open $live"
fi
kill "$writer_pid" 2>/dev/null
wait "$writer_pid" 2>/dev/null
writer_pid=

# expect_usage DESC ARGS...: exit 2, nothing on stdout, one line on stderr.
expect_usage() {
  local desc=$1
  shift
  runpy "$plot" "$@"
  if [[ $rc -eq 2 && ! -s $tmp/out && $(wc -l <"$tmp/err") -eq 1 ]] &&
     grep -q '^plot_fitness.py: error: ' "$tmp/err"; then
    pass
  else
    fail "$desc: plot_fitness.py $* -> exit $rc, want 2 and one error line"
  fi
}
echo "not a run file" >"$tmp/text.h5"
"$py" -c 'import h5py, sys; h5py.File(sys.argv[1], "w")["x"] = [1, 2]' "$tmp/plain.h5"
"$py" -c 'import h5py, sys; h5py.File(sys.argv[1], "w").attrs["schema_version"] = 99' "$tmp/v99.h5"
expect_usage "missing file" "$tmp/missing.h5"
expect_usage "text file" "$tmp/text.h5"
expect_usage "HDF5 file without schema_version" "$tmp/plain.h5"
expect_usage "unsupported schema_version" "$tmp/v99.h5"
expect_usage "directory" "$tmp"
expect_usage "no arguments"
expect_usage "unknown option" "$run" --bogus
expect_usage "two run files" "$run" "$run"
rm -f "$tmp/edge/fitness.png"
runpy "$plot" "$edge" -o "$tmp/no/such/dir/x.png"
if [[ $rc -eq 1 && $(wc -l <"$tmp/err") -eq 1 ]]; then pass; else
  fail "unwritable output: exit $rc, want 1 and one error line"; fi

# --- plot_ciao.py on an analysis file of nickar ciao ------------------------------
ciao_py=$srcdir/scripts/plot_ciao.py
if [[ -z ${NICKAR_TEST_RUN:-} ]]; then
  "$nickar" ciao "$run" --every 2 --games 4 --output "$tmp/main/run.ciao.h5" >"$tmp/out" 2>"$tmp/err"
  rc=$?
  if [[ $rc -eq 0 && -s $tmp/main/run.ciao.h5 ]]; then pass; else fail "nickar ciao -> exit $rc"; fi
  rm -f "$tmp/main/ciao.png"
  runpy "$ciao_py" "$tmp/main/run.ciao.h5" -o "$tmp/main/ciao.png"
  if [[ $rc -eq 0 && $(cat "$tmp/out") == "$tmp/main/ciao.png" ]] && is_png "$tmp/main/ciao.png"; then
    pass
  else
    fail "plot_ciao.py -> exit $rc, want 0 and the PNG"
  fi
  runpy "$ciao_py" "$tmp/main/run.ciao.h5"
  if [[ $rc -eq 0 && $(cat "$tmp/out") == "$tmp/main/run.ciao.png" ]] && is_png "$tmp/main/run.ciao.png"; then
    pass
  else
    fail "plot_ciao.py default output -> exit $rc, want RUN.ciao.png"
  fi
  rm -f "$tmp/main/run.ciao.h5" # the notebook makes its own
fi
for bad in "$run" "$tmp/missing.h5" "$tmp/text.h5"; do
  runpy "$ciao_py" "$bad"
  if [[ $rc -eq 2 && ! -s $tmp/out && $(wc -l <"$tmp/err") -eq 1 ]] &&
     grep -q '^plot_ciao.py: error: ' "$tmp/err"; then
    pass
  else
    fail "plot_ciao.py $bad -> exit $rc, want 2 and one error line"
  fi
done

# --- the notebook ---------------------------------------------------------------
# The committed notebook carries no outputs.
runpy - "$notebook" <<'EOF'
import sys, nbformat
nb = nbformat.read(sys.argv[1], as_version=4)
nbformat.validate(nb)
dirty = [i for i, c in enumerate(nb.cells) if c.cell_type == "code"
         and (c.outputs or c.execution_count is not None)]
assert not dirty, f"cells {dirty} have stored outputs"
assert nb.metadata.kernelspec.name == "python3", nb.metadata.kernelspec
EOF
if [[ $rc -eq 0 ]]; then pass; else fail "committed notebook is not clean"; fi

# execute NAME RUNFILE MIN_IMAGES [ciao] [TOURNAMENT]: nbconvert --execute succeeds, every code
# cell ran without an error output, and at least MIN_IMAGES figures came out.
execute() {
  local name=$1 file=$2 images=$3 ciao=${4:-} tour=${5:-}
  NICKAR_RUN=$file NICKAR_BIN=$nickar_bin NICKAR_LIB=$(dirname "$nickar_bin")/libnickar.so NICKAR_TOURNAMENT=${tour:-$tmp/none.h5} timeout 600 "${nbconvert[@]}" --to notebook --execute \
      --ExecutePreprocessor.kernel_name=python3 \
      --ExecutePreprocessor.timeout=300 \
      --output-dir "$tmp/nb" --output "$name.ipynb" "$notebook" \
      >"$tmp/out" 2>"$tmp/err"
  rc=$?
  if [[ $rc -ne 0 ]]; then
    fail "notebook on $file: nbconvert exit $rc"
    return
  fi
  runpy - "$tmp/nb/$name.ipynb" "$file" "$images" "$ciao" "$tour" <<'EOF'
import sys, nbformat
nb = nbformat.read(sys.argv[1], as_version=4)
code = [c for c in nb.cells if c.cell_type == "code"]
assert code and all(c.execution_count for c in code), "a cell did not run"
errors = [o for c in code for o in c.outputs if o.output_type == "error"]
assert not errors, f"error output: {errors[0].ename}: {errors[0].evalue}"
images = sum("image/png" in o.get("data", {}) for c in code for o in c.outputs)
assert images >= int(sys.argv[3]), f"{images} figures, want >= {sys.argv[3]}"
out = "".join(o.get("text", "") for c in code for o in c.outputs)
assert "run file: " + sys.argv[2] in out, "the notebook read another run file"
assert "\ngame: " in "\n" + out, "the game cell played no game (libnickar.so beside nickar?)"
if sys.argv[4] == "ciao":
    assert "ciao file: " in out, "the CIAO section drew nothing"
if sys.argv[5]:
    assert "tournament file: " + sys.argv[5] in out, "the notebook did not read the tournament"
else:
    assert "no tournament file at" in out, "the notebook did not say there is no tournament"
EOF
  if [[ $rc -eq 0 ]]; then pass; else fail "notebook on $file: executed notebook"; fi
}
# The main run has benchmark rows and endgame grading (5 figures); the edge
# run neither (3);
# the CIAO section adds one where the run has 2 generations or more, and a
# small tournament file 2 more (the rating list and the cross table).
tour=$tmp/main/tournament.h5
"$nickar_bin" tournament --variant abapa random greedy ab:depth=1 --games 4 --quiet \
    --output "$tour" >/dev/null 2>"$tmp/err"
if [[ -s $tour ]]; then pass; else fail "nickar tournament for the notebook"; fi
main_images=6; [[ -z ${NICKAR_TEST_RUN:-} ]] && main_images=7  # the endgame figure
execute main "$run" "$main_images" ciao "$tour"
if [[ -z ${NICKAR_TEST_RUN:-} ]]; then
  if grep -q "endgame grading: generation" "$tmp/nb/main.ipynb"; then pass; else
    fail "notebook: no endgame grading drawn for a run with benchmark.tablebase"; fi
fi
execute edge "$edge" 3
if grep -q "no endgame grading in this run" "$tmp/nb/edge.ipynb"; then pass; else
  fail "notebook: a run without the grading does not say so"; fi

# A long genome (an n-tuple network's 193 weights, evolved by an ES with
# step sizes) whose populations are kept every 2nd generation
# (output.population_every): the notebook summarises the weights instead
# of listing them, and says which generations keep their population.
if [[ -z ${NICKAR_TEST_RUN:-} ]]; then
  mkdir -p "$tmp/long"
  sed -e 's/^features = positional/features = ntuple:layout=ring2:cap=3/' \
    -e '/^tablebase/d' "$tmp/main/small.ini" >"$tmp/long/long.ini"
  printf '[mutation]\nmethod = lognormal\n[output]\npopulation_every = 2\n' >>"$tmp/long/long.ini"
  "$nickar" evolve "$tmp/long/long.ini" --output "$tmp/long/run.h5" --quiet >"$tmp/long/log" 2>&1
  rc=$?
  if [[ $rc -eq 0 ]]; then pass; else fail "nickar evolve (n-tuple run) -> exit $rc: $(head -c 300 "$tmp/long/log")"; fi
  expect_png "an n-tuple run" "$tmp/long/fitness.png" "$tmp/long/run.h5"
  execute long "$tmp/long/run.h5" 5
  if grep -q "193 weights w0 .. w192 (summarised below)" "$tmp/nb/long.ipynb" &&
     grep -q "whole populations in 3 of 6 generations" "$tmp/nb/long.ipynb" &&
     ! grep -q '| `w17` |' "$tmp/nb/long.ipynb"; then
    pass
  else
    fail "notebook: the n-tuple run's weights are not summarised, or its kept generations not said"
  fi
fi

# --- plot_tournament.py -----------------------------------------------------------
tplot=$srcdir/scripts/plot_tournament.py
rm -f "$tmp/main/t.png"
runpy "$tplot" "$tour" -o "$tmp/main/t.png"
if [[ $rc -eq 0 && $(cat "$tmp/out") == "$tmp/main/t.png" ]] && is_png "$tmp/main/t.png"; then
  pass; else fail "plot_tournament.py $tour -> exit $rc, want 0 and the PNG"; fi
runpy "$tplot" "$tour"
if [[ $rc -eq 0 ]] && is_png "$tmp/main/tournament.png"; then pass; else
  fail "plot_tournament.py: default output next to the file"; fi
for bad in "$tmp/missing.h5" "$tmp/text.h5" "$run"; do
  runpy "$tplot" "$bad"
  if [[ $rc -eq 2 && ! -s $tmp/out && $(wc -l <"$tmp/err") -eq 1 ]] &&
     grep -q '^plot_tournament.py: error: ' "$tmp/err"; then pass; else
    fail "plot_tournament.py $bad -> exit $rc, want 2 and one error line"; fi
done

finish

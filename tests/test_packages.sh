# test_packages.sh -- every external program and Python module that the
# scripts, experiments and tests call comes from a package a fresh Debian 12
# is sure to have with scripts/setup.sh's list: that list (and what it
# depends on), Debian's essential and required set, Python's standard
# library, or nickar itself (scripts/check-packages.py; issue 26: the
# studies called /usr/bin/time, which only the development machines had).
# Then, on a temporary copy of the sources, planted calls to programs and
# modules from outside those must each fail the check, named with file and
# line, and calls that are not calls (a comment, an echo's text) must not.
#
#   bash tests/test_packages.sh NICKAR_BINARY SOURCE_ROOT
source "$(dirname "$0")/lib_cli.sh"
checker=$srcdir/scripts/check-packages.py

out=$("$python" "$checker" --list "$srcdir" 2>"$tmp/err")
rc=$?
err=$(cat "$tmp/err")
check "the sources call only allowed programs and modules (exit $rc: $err)" test "$rc" -eq 0
echo "$out" >"$tmp/list"
n=$(wc -l <"$tmp/list")
check "the list is not empty ($n programs and modules)" test "$n" -ge 40
# a few that must be found, each with its package and why it is allowed
for row in "program	awk	mawk	priority required" "program	cmake	cmake	setup.sh" \
           "program	/usr/bin/python3	python3-minimal	setup.sh" "module	numpy	python3-numpy	setup.sh" \
           "module	h5py	python3-h5py" "module	json	python3	standard library" \
           "program	chromium	chromium	setup.sh" "program	sed	sed	essential"; do
  check "found: ${row//	/ }" grep -qF "$row" "$tmp/list"
done
t=time  # (spelt so that this file itself calls no GNU time)
check "no GNU time" test -z "$(awk -F'\t' -v p=/usr/bin/$t '$1 == "program" && ($2 == p || $5 == p)' "$tmp/list")"

# A copy of what the check reads, for planted calls.
copy=$tmp/copy
mkdir -p "$copy/tests"
cp -r "$srcdir/scripts" "$srcdir/experiments" "$srcdir/analysis" "$srcdir/notebooks" "$srcdir/python" \
  "$srcdir/.ci" "$srcdir/CMakeLists.txt" "$copy/"
cp "$srcdir"/tests/*.sh "$srcdir"/tests/*.py "$srcdir/tests/CMakeLists.txt" "$copy/tests/"

# Planted calls, each to its own name, in one copy: the check fails and
# names each with its file, and nothing else.
planted=(
  "experiments/study-lib.sh~/usr/bin/$t -f %e true~/usr/bin/$t~the issue's fault, GNU time (package time)"
  "tests/test_study_solved.sh~cowsay-nickar-1 hello~cowsay-nickar-1~an unknown program"
  "scripts/demo.sh~x=\$(tr a b </dev/null | cowsay-nickar-2)~cowsay-nickar-2~a program inside \$(...)"
  "tests/test_ladder.sh~bash -c \"true && cowsay-nickar-3\"~cowsay-nickar-3~a program in bash -c"
  "experiments/solved/run.sh~nice -n 5 timeout 10 cowsay-nickar-4 x~cowsay-nickar-4~a program behind nice and timeout"
  "tests/test_cli_view.sh~/usr/bin/python3 - <<'PY'
import nickar_no_module_1
PY~nickar_no_module_1~a module in a Python heredoc"
  "scripts/plot_fitness.py~import os, nickar_no_module_2~nickar_no_module_2~a module in a script"
  "experiments/timecmd.py~from nickar_no_module_3.sub import x~nickar_no_module_3~a from-import"
  "tests/test_mpi.sh~/usr/bin/python3 -c \"import nickar_no_module_4\"~nickar_no_module_4~a module in python3 -c"
  "scripts/board.py~subprocess.run([\"cowsay-nickar-5\", \"x\"])~cowsay-nickar-5~a program a Python script runs"
)
# split ROW: its four fields, file~text~name~desc (the text may span lines)
split() {
  local rest=$1
  file=${rest%%~*}; rest=${rest#*~}
  text=${rest%%~*}; rest=${rest#*~}
  name=${rest%%~*}; desc=${rest#*~}
}
p=$tmp/planted
cp -r "$copy" "$p"
for row in "${planted[@]}"; do
  split "$row"
  printf '%s\n' "$text" >>"$p/$file"
done
"$python" "$checker" "$p" >"$tmp/pout" 2>"$tmp/perr"
prc=$?
check "planted calls: exit 1 (got $prc)" test "$prc" -eq 1
for row in "${planted[@]}"; do
  split "$row"
  check "planted: $desc, named with its file ($file)" \
    grep -qE "^check-packages: $file(:[0-9]+)?: (program|module) '$name'" "$tmp/perr"
done
check "nothing but the planted named ($(head -c 600 "$tmp/perr"))" \
  test "$(wc -l <"$tmp/perr")" -eq "${#planted[@]}"

# Not calls: a comment, an echo's text, a case pattern, an array's words,
# a lookup with command -v of a program absent here; the copy passes.
rm -rf "$p"
cp -r "$copy" "$p"
printf '%s\n' '# cowsay-nickar-1 in a comment' 'echo "run cowsay-nickar-2 first"' \
  'case $x in cowsay-nickar-3) true ;; esac' 'a=(cowsay-nickar-4 b)' \
  'command -v cowsay-nickar-5 >/dev/null && echo yes' >>"$p/tests/test_ladder.sh"
"$python" "$checker" --list "$p" >"$tmp/pout" 2>"$tmp/perr"
check "not calls: the copy passes ($(head -c 300 "$tmp/perr"))" test $? -eq 0
check "a lookup absent here is listed as optional" \
  grep -q "cowsay-nickar-5.*looked up, absent here" "$tmp/pout"
finish

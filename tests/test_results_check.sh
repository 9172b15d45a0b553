# test_results_check.sh -- scripts/check-results.py on the committed
# results/: every number a study README quotes (each table cell, each
# interval) is remade from the committed data and must equal the README's
# (issue 24, "a results check, run by the test suite").  Needs no run file
# and no nickar binary; seconds.
#
#   bash tests/test_results_check.sh NICKAR_BINARY SOURCE_ROOT
set -u
src=$(cd "$2" && pwd) || exit 2
/usr/bin/python3 "$src/scripts/check-results.py" --results "$src/results"

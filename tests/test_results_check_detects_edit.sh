# test_results_check_detects_edit.sh -- scripts/check-results.py
# --self-test: the results check passes on a copy of results/ayo2004, and
# fails on a copy with one README number edited by hand and on one with one
# game result edited in matches.jsonl, so that it is a check that can fail;
# likewise on results/perfect with davis-kendall-2002 and solved: it passes
# on the copy and fails with an endgame cell of the study's README edited,
# with a number of a `nickar grade` output edited and with the study's
# endgame line edited.
#
#   bash tests/test_results_check_detects_edit.sh NICKAR_BINARY SOURCE_ROOT
set -u
src=$(cd "$2" && pwd) || exit 2
/usr/bin/python3 "$src/scripts/check-results.py" --self-test

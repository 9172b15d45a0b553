#!/usr/bin/env bash
# test_cli_play_table.sh -- the play settings (src/run/play.h) as the
# commands' options: every option that is a play setting shows in --help
# the default and range that the config schema gives the same setting
# (configs/README.md, made from the schema and checked against it by
# test_io_config), refuses a value just out of that range with one line
# naming the option and the range, and agrees with every other command
# that has it (--games, --threads: no config key).  tests/test_run_play.c
# checks the rows against the schema itself.
# Usage: test_cli_play_table.sh NICKAR_BINARY SOURCE_ROOT
source "$(dirname "$0")/lib_cli.sh"
readme=$srcdir/configs/README.md

# column C (3: default, 4: range) of config key K in configs/README.md,
# without backquotes
cfg() {
  awk -F' [|] ' -v k="\`$1\`" -v c="$2" '$1 == "| " k { gsub(/`/, "", $c); print $c }' "$readme"
}

# the help line of --OPT of nickar ARGS --help
help_line() {
  local opt=$1
  shift
  "$nickar" "$@" --help | grep -- "^  --$opt "
}

# what --help adds to a play setting's line for a default D and range R of
# the schema ("any" and "" add no range; an enum's choices are "one of ...")
suffix() {
  local d=$1 r=$2
  [[ $r == any ]] && r=
  [[ $r == *,* ]] && r="one of $r"
  if [[ -n $d && -n $r ]]; then echo "(default $d; $r)"
  elif [[ -n $d ]]; then echo "(default $d)"
  else echo "($r)"; fi
}

ends_with() { [[ $1 == *"$2" ]]; }

# shared OPT KEY CMDARGS...: --OPT of the command nickar CMDARGS is config
# key KEY: the same default and range in its --help; a value above the
# range (or, for an enum, not a choice) is refused naming --OPT.
shared() {
  local opt=$1 key=$2
  shift 2
  local d r
  d=$(cfg "$key" 3)
  r=$(cfg "$key" 4)
  if [[ -z $d || -z $r ]]; then fail "$key: not in configs/README.md"; return; fi
  # the one difference kept on purpose (run/play.h): the unit's default
  [[ $key == fitness.unit ]] && { check "fitness.unit: auto in a config" test "$d" = auto; d=game; }
  local line want
  line=$(help_line "$opt" "$@")
  want=$(suffix "$d" "$r")
  check "nickar $1 --$opt: '$want' in --help (as $key), got '$line'" ends_with "$line" "$want"
  local cmd=$1
  if [[ $r == *,* ]]; then
    expect_error "$cmd" "bad value 'x' for --$opt: expected one of $r" "$@" "--$opt" x
  else
    local lo=0 hi=18446744073709551615 bad=18446744073709551616
    [[ $r == *..* ]] && { lo=${r%..*}; hi=${r#*..}; bad=$((hi + 1)); }
    expect_error "$cmd" "bad value '$bad' for --$opt: expected an integer from $lo to $hi" \
      "$@" "--$opt" "$bad"
  fi
}

# ===== the commands' play settings against the config schema =====
shared seed experiment.seed play --variant antigua --opponent random
shared unit fitness.unit play --variant antigua --opponent random
shared match-games fitness.match_games play --variant antigua --opponent random --unit match
shared seed experiment.seed replay --variant antigua --random
shared seed experiment.seed bench
shared seed experiment.seed bench --ratings
shared seed experiment.seed grade --variant antigua random
for c in "match --variant antigua random greedy" "tournament --variant antigua random greedy"; do
  # shellcheck disable=SC2086
  {
    shared seed experiment.seed $c
    shared openings fitness.openings $c
    shared ply-limit player.ply_limit $c
    shared unit fitness.unit $c
    shared match-games fitness.match_games $c --unit match
  }
done
for c in "rate --variant antigua random" "ciao run.h5"; do
  # shellcheck disable=SC2086
  {
    shared seed experiment.seed $c
    shared openings fitness.openings $c
  }
done

# ===== the options without a config key: the same in every command =====
# same_everywhere OPT WHAT CMD...: the --help lines of --OPT end alike, and a
# value above the range is refused alike (WHAT names the check)
same_everywhere() {
  local opt=$1 what=$2 first= firstmsg= line msg hi
  shift 2
  for c in "$@"; do
    # shellcheck disable=SC2086
    line=$(help_line "$opt" $c)
    line="(${line##*(}"
    hi=${line##*..}
    hi=${hi%)}
    # shellcheck disable=SC2086
    run $c "--$opt" $((hi + 1))
    msg=$err
    if [[ -z $first ]]; then
      first=$line
      firstmsg=${msg#nickar * }
      check "--$opt ($what): a range in --help ($line)" test "$hi" -gt 0
    else
      check "--$opt ($what) of '$c': '$first' in --help, got '$line'" test "$line" = "$first"
      check "--$opt ($what) of '$c': refused as elsewhere" test "${msg#nickar * }" = "$firstmsg"
    fi
  done
}
same_everywhere threads "threads" "match --variant antigua random greedy" \
  "tournament --variant antigua random greedy" "rate --variant antigua random" "ciao run.h5" \
  "evolve $srcdir/configs/quickstart.ini"
same_everywhere games "one set of games" "match --variant antigua random greedy" \
  "rate --variant antigua random"
same_everywhere games "games a pairing" "tournament --variant antigua random greedy" \
  "ciao run.h5"

# ===== the test notices a planted difference =====
# a help line with another range, as an option written outside the table
# would print it
planted="  --openings K  random plies (default 2; 0..100)"
want=$(suffix "$(cfg fitness.openings 3)" "$(cfg fitness.openings 4)")
if ends_with "$planted" "$want"; then fail "a planted range (0..100) is not noticed"; else pass; fi

finish

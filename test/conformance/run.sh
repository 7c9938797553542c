#!/usr/bin/env bash
# test/conformance/run.sh - run the official MCP conformance suites against the fixture Worker.
#
# 1. Starts `wrangler dev` of examples/conformance on a free loopback port (and a free inspector
#    port) and waits until it answers.
# 2. Runs ../shared/tools/run-conformance.sh twice against http://127.0.0.1:PORT/mcp:
#      (a) CONFORMANCE_VERSION=0.1.16, every server scenario            (revision 2025-11-25)
#      (b) CONFORMANCE_VERSION=0.2.0-alpha.12 CONFORMANCE_REQUIREMENTS=2025-11-25 (incl. not-scored
#          server-session-lifecycle and server-sse-polling)
#      (c) CONFORMANCE_VERSION=0.2.0-alpha.12 CONFORMANCE_REQUIREMENTS=2026-07-28
#          (the 37 scored scenarios plus the not-scored ones it also runs)
#      (d) the skills extension scenarios of 0.2.0-alpha.12 (sep-2640-skills-enumeration,
#          -manifest, -directory), which no requirement set includes: at 2026-07-28, and forced
#          at 2025-11-25 (the extension is negotiated in initialize too). A server without the
#          extension "passes" them with every check SKIPPED, so every-check-ran.mjs then requires
#          each of their checks to be SUCCESS (at 2025-11-25 the two 2026-only cache-attribute
#          checks may be SKIPPED).
# 3. Compares the FAILED scenarios of each run with its baseline file
#      test/conformance/baseline-2025-11-25.txt, baseline-2025-11-25-requirements.txt, baseline-2026-07-28.txt,
#      baseline-2026-07-28-skills.txt, baseline-2025-11-25-skills.txt
#    (one scenario name per line, `#` starts a comment). It fails on a regression (a failure not
#    in the baseline) and on a stale baseline entry (listed, but the scenario now passes or did
#    not run).
# 4. Always stops wrangler (trap), and ends with exactly one line
#      conformance: N passed, M failed
#    N = scenarios whose outcome matched the baseline, M = regressions + stale entries.
#
# Environment (optional):
#   CONFORMANCE_RUNNER    path of run-conformance.sh (default: <repo>/../shared/tools/run-conformance.sh,
#                         then /work/shared/tools/run-conformance.sh)
#   CONFORMANCE_RESULTS   results dir (default: <repo>/conformance-results/<timestamp>-<pid>)
#   CONFORMANCE_ONLY      "2025-11-25", "2025-11-25-requirements", "2026-07-28", "2026-07-28-skills" or
#                         "2025-11-25-skills": run just that suite
#   CONFORMANCE_BASELINE_DIR  where baseline-<revision>.txt live (default: this script's dir)
#   CONFORMANCE_TIMEOUT   seconds per 0.1.16 scenario, passed to the runner (default 90)
#   CONFORMANCE_VERBOSE=1 also print the runner's own per-scenario lines and wrangler's log
#
# Caches (suite installs, node@22) go to ~/.cache (or a temp dir when that is not writable);
# results go to the git-ignored conformance-results/. Network: only the npm registry, for
# installing the suites and node@22 on first use; the suites talk only to the loopback server.

set -u -o pipefail

SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(git -C "$SCRIPT_DIR" rev-parse --show-toplevel 2>/dev/null || (cd "$SCRIPT_DIR/../.." && pwd))"
CONFIG="examples/conformance/wrangler.toml"
WRANGLER="$ROOT/node_modules/.bin/wrangler"
SUITE_2025_VERSION="0.1.16"
SUITE_2026_VERSION="0.2.0-alpha.12"
SKILLS_SCENARIOS=(sep-2640-skills-enumeration sep-2640-skills-manifest sep-2640-skills-directory)

say() { echo "[conformance] $*" >&2; }
now_ms() { date +%s%3N; }
seconds_since() { local ms=$(( $(now_ms) - $1 )); printf '%d.%01d s' $((ms / 1000)) $(((ms % 1000) / 100)); }
finish() { echo "conformance: $1 passed, $2 failed"; if [ "$2" -eq 0 ] && [ "$1" -gt 0 ]; then exit 0; else exit 1; fi; }

START_MS="$(now_ms)"

# ------------------------------------------------------------------ locate the runner
RUNNER="${CONFORMANCE_RUNNER:-}"
if [ -z "$RUNNER" ]; then
  for candidate in "$ROOT/../shared/tools/run-conformance.sh" "/work/shared/tools/run-conformance.sh"; do
    if [ -f "$candidate" ]; then RUNNER="$candidate"; break; fi
  done
fi
if [ -z "$RUNNER" ] || [ ! -f "$RUNNER" ]; then
  if [ -n "${CONFORMANCE_RUNNER:-}" ]; then say "CONFORMANCE_RUNNER=$CONFORMANCE_RUNNER does not exist"
  else say "run-conformance.sh not found (looked in $ROOT/../shared/tools and /work/shared/tools; set CONFORMANCE_RUNNER)"; fi
  finish 0 1
fi
say "runner: $RUNNER"
[ -x "$WRANGLER" ] || { say "wrangler not installed at $WRANGLER (run npm ci first)"; finish 0 1; }

# ------------------------------------------------------------------ writable places
RESULTS="${CONFORMANCE_RESULTS:-$ROOT/conformance-results/$(date +%Y%m%dT%H%M%S)-$$}"
mkdir -p "$RESULTS" || { say "cannot create results dir $RESULTS"; finish 0 1; }
CACHE_BASE="${XDG_CACHE_HOME:-$HOME/.cache}/mcp-conformance"
if ! mkdir -p "$CACHE_BASE" 2>/dev/null || [ ! -w "$CACHE_BASE" ]; then
  CACHE_BASE="${TMPDIR:-/tmp}/mcp-conformance-cache-$(id -u)"
  mkdir -p "$CACHE_BASE" || { say "no writable cache dir"; finish 0 1; }
fi

# ------------------------------------------------------------------ wrangler dev
export WRANGLER_SEND_METRICS=false WRANGLER_SEND_ERROR_REPORTS=false WRANGLER_HIDE_BANNER=true CLOUDFLARE_CF_FETCH_ENABLED=false
export WRANGLER_LOG_PATH="$RESULTS/wrangler-logs"
WRANGLER_LOG="$RESULTS/wrangler.log"
WPID=""

stop_wrangler() {
  [ -n "$WPID" ] || return 0
  # wrangler was started as the leader of its own process group: signal the group (wrangler, workerd, esbuild).
  kill -TERM -- "-$WPID" 2>/dev/null
  local i=0
  while kill -0 -- "-$WPID" 2>/dev/null && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
  if kill -0 -- "-$WPID" 2>/dev/null; then kill -KILL -- "-$WPID" 2>/dev/null; sleep 0.2; fi
  wait "$WPID" 2>/dev/null
  WPID=""
}
RPID="" # the conformance runner, while one runs
stop_runner() { [ -n "$RPID" ] && kill -TERM -- "-$RPID" 2>/dev/null; RPID=""; }
trap 'stop_runner; stop_wrangler' EXIT
trap 'say "interrupted"; stop_runner; stop_wrangler; trap - EXIT; echo "conformance: 0 passed, 1 failed"; exit 130' INT TERM HUP

free_ports() { # prints two distinct free loopback TCP ports
  node -e '
    const net = require("node:net");
    const open = () => new Promise((ok, fail) => { const s = net.createServer(); s.once("error", fail); s.listen(0, "127.0.0.1", () => ok(s)); });
    Promise.all([open(), open()]).then((servers) => { console.log(servers.map((s) => s.address().port).join(" ")); servers.forEach((s) => s.close()); });'
}

answers() { # URL answers HTTP at all (any status)
  if command -v curl >/dev/null 2>&1; then curl -s -o /dev/null --max-time 2 "$1"
  else node -e 'fetch(process.argv[1], { signal: AbortSignal.timeout(2000) }).then(() => process.exit(0), () => process.exit(1))' "$1"; fi
}

start_wrangler() { # start_wrangler PORT INSPECTOR_PORT -> 0 when ready
  : >"$WRANGLER_LOG"
  set -m # own process group, so stop_wrangler can reach workerd too
  (cd "$ROOT" && exec "$WRANGLER" dev --config "$CONFIG" --ip 127.0.0.1 --port "$1" \
      --inspector-ip 127.0.0.1 --inspector-port "$2" --log-level warn \
      --show-interactive-dev-session=false --live-reload=false) </dev/null >>"$WRANGLER_LOG" 2>&1 &
  WPID=$!
  set +m
  local deadline=$(( $(now_ms) + 90000 ))
  while [ "$(now_ms)" -lt "$deadline" ]; do
    if ! kill -0 "$WPID" 2>/dev/null; then stop_wrangler; return 1; fi # exited early: clear what is left of its group
    answers "http://127.0.0.1:$1/mcp" && return 0
    sleep 0.3
  done
  stop_wrangler
  return 1
}

PORT=""
for attempt in 1 2 3; do
  read -r P I < <(free_ports) || { say "could not find free ports"; finish 0 1; }
  say "starting wrangler dev ($CONFIG) on 127.0.0.1:$P (inspector $I), attempt $attempt"
  WAIT_MS="$(now_ms)"
  if start_wrangler "$P" "$I"; then PORT="$P"; break; fi
  say "wrangler dev did not start; its output:"; sed 's/\x1b\[[0-9;]*m//g' "$WRANGLER_LOG" | tail -20 >&2
done
[ -n "$PORT" ] || { say "giving up on wrangler dev"; finish 0 1; }
URL="http://127.0.0.1:$PORT/mcp"
say "server ready at $URL after $(seconds_since "$WAIT_MS")"

# ------------------------------------------------------------------ run one suite and compare
MATCHED=0; BAD=0
SUMMARY=()

read_baseline() { # file -> names, one per line
  [ -f "$1" ] || return 0
  sed -e 's/#.*$//' -e 's/[[:space:]]*$//' -e 's/^[[:space:]]*//' "$1" | grep -v '^$' | sort -u
}

run_suite() { # run_suite REVISION LABEL SUITE_VERSION [ENV...]; $SUITE_SCENARIOS (space-separated) limits the scenarios
  local revision="$1" label="$2" version="$3"; shift 3
  local baseline_file="${CONFORMANCE_BASELINE_DIR:-$SCRIPT_DIR}/baseline-$revision.txt"
  local out="$RESULTS/$revision" raw suite_start
  mkdir -p "$out"
  raw="$out/runner-output.txt"
  say "running $label against $URL (results in $out)"
  suite_start="$(now_ms)"
  # In the background, as its own process group, so a signal to this script can stop it at once.
  set -m
  env "$@" CONFORMANCE_VERSION="$version" CONFORMANCE_CACHE="$CACHE_BASE/$version" CONFORMANCE_OUT="$out" \
    CONFORMANCE_TIMEOUT="${CONFORMANCE_TIMEOUT:-90}" CONFORMANCE_WAIT=15 \
    bash "$RUNNER" "$URL" ${SUITE_SCENARIOS:-} </dev/null >"$raw" 2>"$out/runner-stderr.txt" &
  RPID=$!
  set +m
  wait "$RPID"
  local rc=$? took
  RPID=""
  took="$(seconds_since "$suite_start")"
  [ "${CONFORMANCE_VERBOSE:-0}" = 1 ] && cat "$raw" "$out/runner-stderr.txt" >&2

  # Scenario lines of the runner: "PASS name (...)", "FAIL name (...)", "PASS (not scored) name", "FAIL (not scored) name".
  local -A outcome=() note=()
  local line verdict name
  while IFS= read -r line; do
    verdict="${line%% *}"
    name="${line#"$verdict" }"
    local tag=""
    if [ "${name#"(not scored) "}" != "$name" ]; then tag=" (not scored)"; name="${name#"(not scored) "}"; fi
    local detail=""
    [ "${name#* }" != "$name" ] && detail=" ${name#* }"
    name="${name%% *}"
    outcome[$name]="$verdict"
    note[$name]="$tag$detail"
  done < <(grep -E '^(PASS|FAIL) ' "$raw")

  echo
  echo "== $label: $(grep -E '^conformance: ' "$raw" | tail -1 | sed 's/^conformance: /runner says /') (rc $rc) in $took"
  if [ "${#outcome[@]}" -eq 0 ]; then
    echo "   no scenario results; runner stderr:"; tail -15 "$out/runner-stderr.txt" | sed 's/^/   | /'
    BAD=$((BAD + 1)); SUMMARY+=("$label: no results (counted as 1 failure)")
    return
  fi

  local -A expected=()
  while IFS= read -r name; do expected[$name]=1; done < <(read_baseline "$baseline_file")

  local pass=0 xfail=0 regress=0 stale=0 timeouts=0 scored=0 scored_pass=0
  for name in $(printf '%s\n' "${!outcome[@]}" | sort); do
    local v="${outcome[$name]}" n="${note[$name]}"
    case "$n" in *"timed out"*) timeouts=$((timeouts + 1)) ;; esac
    case "$n" in " (not scored)"*) ;; *) scored=$((scored + 1)); [ "$v" = PASS ] && scored_pass=$((scored_pass + 1)) ;; esac
    if [ "$v" = PASS ] && [ -z "${expected[$name]:-}" ]; then
      pass=$((pass + 1)); echo "   pass        $name$n"
    elif [ "$v" = FAIL ] && [ -n "${expected[$name]:-}" ]; then
      xfail=$((xfail + 1)); echo "   xfail       $name$n"
    elif [ "$v" = FAIL ]; then
      regress=$((regress + 1)); echo "   REGRESSION  $name$n  <- fails and is not in $(basename "$baseline_file")"
    else
      stale=$((stale + 1)); echo "   STALE       $name$n  <- passes now: remove it from $(basename "$baseline_file")"
    fi
  done
  for name in "${!expected[@]}"; do
    if [ -z "${outcome[$name]:-}" ]; then
      stale=$((stale + 1)); echo "   STALE       $name  <- in $(basename "$baseline_file") but the suite did not run it"
    fi
  done
  [ "$timeouts" -gt 0 ] && echo "   WARNING: $timeouts scenario(s) hit the per-scenario timeout"
  MATCHED=$((MATCHED + pass + xfail)); BAD=$((BAD + regress + stale))
  SUMMARY+=("$label, $took: $scored_pass/$scored scored scenarios pass; $pass passed, $xfail expected failures, $regress regressions, $stale stale baseline entries")
}

wanted() { [ -z "${CONFORMANCE_ONLY:-}" ] || [ "$CONFORMANCE_ONLY" = "$1" ]; }
if wanted 2025-11-25; then
  run_suite 2025-11-25 "2025-11-25 (suite $SUITE_2025_VERSION, all scenarios)" "$SUITE_2025_VERSION"
fi
if wanted 2025-11-25-requirements; then
  run_suite 2025-11-25-requirements "2025-11-25 (suite $SUITE_2026_VERSION --requirements 2025-11-25)" "$SUITE_2026_VERSION" CONFORMANCE_REQUIREMENTS=2025-11-25
fi
if wanted 2026-07-28; then
  run_suite 2026-07-28 "2026-07-28 (suite $SUITE_2026_VERSION --requirements 2026-07-28)" "$SUITE_2026_VERSION" CONFORMANCE_REQUIREMENTS=2026-07-28
fi

every_check_ran() { # every_check_ran REVISION LABEL [--allow-skip CHECK_ID]...
  local report rc
  report="$(node "$SCRIPT_DIR/every-check-ran.mjs" "$RESULTS/$1" "${SKILLS_SCENARIOS[@]}" "${@:3}")"
  rc=$?
  echo "== $2: every check run?"
  echo "$report"
  if [ "$rc" -eq 0 ]; then SUMMARY+=("$2: every check of ${#SKILLS_SCENARIOS[@]} scenarios ran and passed")
  else
    local missing; missing="$(grep -c -E '^ +NOT ' <<<"$report")"
    BAD=$((BAD + missing)); SUMMARY+=("$2: $missing scenario(s) with checks that did not run or pass")
  fi
}
if wanted 2026-07-28-skills; then
  SUITE_SCENARIOS="${SKILLS_SCENARIOS[*]}" run_suite 2026-07-28-skills "skills extension at 2026-07-28 (suite $SUITE_2026_VERSION)" "$SUITE_2026_VERSION"
  every_check_ran 2026-07-28-skills "skills extension at 2026-07-28"
fi
if wanted 2025-11-25-skills; then
  SUITE_SCENARIOS="${SKILLS_SCENARIOS[*]}" run_suite 2025-11-25-skills "skills extension at 2025-11-25 (suite $SUITE_2026_VERSION, --force)" "$SUITE_2026_VERSION" CONFORMANCE_ARGS="--spec-version 2025-11-25 --force"
  every_check_ran 2025-11-25-skills "skills extension at 2025-11-25" --allow-skip sep-2640-skills-list-cache-attributes --allow-skip sep-2640-skills-get-cache-attributes
fi

stop_wrangler
if [ "${CONFORMANCE_VERBOSE:-0}" = 1 ]; then say "wrangler output:"; sed 's/\x1b\[[0-9;]*m//g' "$WRANGLER_LOG" >&2; fi

echo
echo "== summary (results in ${RESULTS#"$ROOT/"}, total $(seconds_since "$START_MS"))"
for line in "${SUMMARY[@]}"; do echo "   $line"; done
finish "$MATCHED" "$BAD"

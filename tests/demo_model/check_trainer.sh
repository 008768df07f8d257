#!/usr/bin/env bash
# The demo model's trainer in its short mode (tools/demo_model): a small corpus laid out by dgem,
# the trainer's forward against the independent reference, a short run that lowers the loss, an
# interrupted run that resumes to the same weights byte for byte (one thread against two, with
# generative steps trained on sampler rollouts), the refusals of bad flags, and the engine reading
# what the trainer wrote.
#   check_trainer.sh PYTHON DGEM TOKENIZER_JSON
set -euo pipefail
py=$1 dgem=$2 tokenizer=$3
repo=$(cd "$(dirname "$0")/../.." && pwd)
tools=$repo/tools/demo_model
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

"$py" "$tools/corpus.py" --dgem "$dgem" --out "$work/corpus" --per-policy 6 --heldout-per-policy 2 >/dev/null
"$py" "$tools/check_forward.py" --corpus "$work/corpus" --float64 | tail -1

# Half the generative steps train on the sampler's own states (--rollout-share), so the resumed run
# replays those rollouts too; a tenth of the prompt tokens are fed as unseen words (--prompt-dropout).
common=(--corpus "$work/corpus" --steps 40 --batch-tokens 1500 --save-every 10 --heldout-limit 2 --seed 5
        --rollout-share 0.5 --rollout-steps 3 --prompt-dropout 0.1)
# Run a computes each step's two halves side by side (--threads 2), run b one after the other
# (--threads 1, interrupted and resumed): the weights must be the same bits.
"$py" "$tools/train.py" "${common[@]}" --threads 2 --work "$work/a" --out "$work/out-a" | tail -1
set +e
"$py" "$tools/train.py" "${common[@]}" --threads 1 --work "$work/b" --out "$work/out-b" --stop-after 17 >/dev/null
rc=$?
set -e
[ "$rc" = 3 ] || { echo "FAIL: an interrupted run should exit 3, got $rc"; exit 1; }
[ ! -e "$work/out-b/model.safetensors" ] || { echo "FAIL: an interrupted run wrote weights"; exit 1; }
# (Output to a file, not a pipe into grep -q: an early-closing reader would stop the trainer.)
"$py" "$tools/train.py" "${common[@]}" --threads 1 --work "$work/b" --out "$work/out-b" >"$work/resume.log"
grep -q "resuming at step 17" "$work/resume.log" || { echo "FAIL: no resume"; cat "$work/resume.log"; exit 1; }
cmp "$work/out-a/model.safetensors" "$work/out-b/model.safetensors" ||
  { echo "FAIL: the resumed one-thread run's weights differ from the uninterrupted two-thread run's"; exit 1; }
echo "resumed one-thread run equals the uninterrupted two-thread run byte for byte"

"$py" - "$work/out-a/training.json" <<'PY'
import json, sys
t = json.load(open(sys.argv[1]))
first, last = t["loss_first"], t["loss_last"]
print(f"loss {first} -> {last} over {t['steps']} steps (windows of {t['loss_window']})")
assert last < first, "the loss did not fall"
PY

expect_refusal() {  # expect_refusal WORD ARGS...: exit 2 and a message naming WORD
  local word=$1; shift
  set +e
  msg=$("$py" "$tools/train.py" "$@" 2>&1 >/dev/null)
  rc=$?
  set -e
  [ "$rc" = 2 ] && grep -q -- "$word" <<<"$msg" || { echo "FAIL: $* gave $rc: $msg"; exit 1; }
}
touch "$work/a-file"
expect_refusal --steps --corpus "$work/corpus" --work "$work/c" --out "$work/o" --steps 0
expect_refusal --seed --corpus "$work/corpus" --work "$work/c" --out "$work/o" --seed -4
expect_refusal --joint-share --corpus "$work/corpus" --work "$work/c" --out "$work/o" --joint-share 1.5
expect_refusal --rollout-steps --corpus "$work/corpus" --work "$work/c" --out "$work/o" --rollout-steps 0
expect_refusal --prompt-dropout --corpus "$work/corpus" --work "$work/c" --out "$work/o" --prompt-dropout 0.9
expect_refusal --out --corpus "$work/corpus" --work "$work/c" --out "$work/a-file"
expect_refusal --corpus --corpus "$work/nowhere" --work "$work/c" --out "$work/o"
expect_refusal --work --corpus "$work/corpus" --work "$work/a" --out "$work/o" --seed 6
echo "bad flags refused"

# The engine loads the trainer's folder unchanged (with the tokenizer beside it, as set-up puts it).
cp "$tokenizer" "$work/out-a/"
"$dgem" decide --local --model "$work/out-a" -t "$repo/resources/templates/support_triage.json.tmpl" \
  -v "ticket=The app crashes." --json >"$work/decision.json"
grep -q '"urgent"' "$work/decision.json" || { echo "FAIL: no decision"; exit 1; }
echo "the engine reads the trained folder"

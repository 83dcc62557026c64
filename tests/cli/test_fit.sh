#!/bin/bash
# gpux fit: the calculator as a command. Its numbers are fit/'s (through
# view/, as the TUI panel shows them); here they are held against published
# cases and the issues' own examples.
. "$(dirname "$0")/../lib.sh"

# ---- issue 6: 70B with QLoRA fits an H200 on one GPU and not an RTX 4090 ----
"$GPUX" fit 70 --method qlora --format json >"$TMPD/q.json" 2>"$TMPD/err"
expect_eq "fit 70 --method qlora exits 0" "$?" 0
expect_eq "fit: nothing on stderr" "$(cat "$TMPD/err")" ""
check "fit json parses" jq -e . "$TMPD/q.json"
expect_eq "fit: one row per GPU of the catalogue (15)" "$(jq length "$TMPD/q.json")" 15
expect_eq "QLoRA 70B: H200 fits on 1 GPU" "$(jq -c '.[] | select(.gpu == "h200") | [.job_fits, .job_gpus, .job_avail_gb]' "$TMPD/q.json")" '[true,1,141]'
expect_eq "QLoRA 70B: RTX 4090 does not fit, needs more than 1" \
  "$(jq -c '.[] | select(.gpu == "rtx-4090") | [.job_fits, (.job_gpus > 1)]' "$TMPD/q.json")" '[false,true]'
expect_eq "memory needed per GPU is the sum of the breakdown" \
  "$(jq -r '[.[0] | (.job_mem_gb - (.mem_weights_gb + .mem_gradients_gb + .mem_optimizer_gb + .mem_activations_gb + .mem_kv_cache_gb + .mem_margin_gb)) | fabs < 1e-6] | .[0]' "$TMPD/q.json")" true

# ---- "70B" and "70" are the same model ----------------------------------------------
expect_eq "fit 70B = fit 70" "$("$GPUX" fit 70B --method qlora --format csv)" "$("$GPUX" fit 70 --method qlora --format csv)"
expect_eq "fit 70b = fit 70" "$("$GPUX" fit 70b --method qlora --format csv)" "$("$GPUX" fit 70 --method qlora --format csv)"
expect_eq "fit 0.07T = fit 70" "$("$GPUX" fit 0.07T --method qlora --format csv)" "$("$GPUX" fit 70 --method qlora --format csv)"
# pt-PT writes a decimal comma: 7,5 there is 7.5
expect_eq "--lang pt-PT fit 7,5 = fit 7.5 (csv)" "$("$GPUX" --lang pt-PT fit 7,5 --format csv)" "$("$GPUX" fit 7.5 --format csv)"

# ---- ZeRO paper (Rajbhandari et al. 2020, Fig. 1): 7.5B parameters, 64 GPUs,
# model states per GPU 120 / 31.4 / 16.6 / 1.9 GB for no ZeRO / ZeRO-1 / -2 / -3
# (the paper's accounting; DeepSpeed's estimators are the default)
states() { "$GPUX" fit 7.5 --gpus 64 --zero "$1" --zero-accounting paper --format json |
  jq -r '.[0] | (.mem_weights_gb + .mem_gradients_gb + .mem_optimizer_gb) * 10 | round / 10'; }
expect_eq "ZeRO paper Fig. 1: no ZeRO 120 GB" "$(states 0)" 120
expect_eq "ZeRO paper Fig. 1: ZeRO-1 31.4 GB" "$(states 1)" 31.4
expect_eq "ZeRO paper Fig. 1: ZeRO-2 16.6 GB" "$(states 2)" 16.6
expect_eq "ZeRO paper Fig. 1: ZeRO-3 1.9 GB" "$(states 3)" 1.9

# ---- issue 6: full training with 8 GPUs and ZeRO-3 changes needed memory and fits ---
one=$("$GPUX" fit llama-3.1-70b --method full --format json | jq -c '.[] | select(.gpu == "h200") | [.job_mem_one_gpu_gb, .job_fits]')
eight=$("$GPUX" fit llama-3.1-70b --method full --gpus 8 --zero 3 --format json | jq -c '.[] | select(.gpu == "h200") | [.job_mem_gb, .job_fits]')
expect_match "70B full training on 1 H200: does not fit" "$one" ',false\]$'
expect_eq "70B full training, ZeRO-3: 8 GPUs need less per GPU than 1" \
  "$(jq -n --argjson a "$one" --argjson b "$eight" '$b[0] < $a[0] / 4')" true
expect_eq "checkpointing off needs more activation memory" \
  "$(jq -n --argjson a "$("$GPUX" fit 8 --seq 8192 --format json | jq '.[0].mem_activations_gb')" \
          --argjson b "$("$GPUX" fit 8 --seq 8192 --no-checkpointing --format json | jq '.[0].mem_activations_gb')" '$b > $a')" true
expect_eq "8-bit Adam needs less optimizer memory than Adam" \
  "$(jq -n --argjson a "$("$GPUX" fit 8 --optimizer adam --format json | jq '.[0].mem_optimizer_gb')" \
          --argjson b "$("$GPUX" fit 8 --optimizer adam8bit --format json | jq '.[0].mem_optimizer_gb')" '$b < $a')" true

# ---- methods and their extra columns ------------------------------------------------------
hdr=$("$GPUX" fit 8 --method infer-int4 --format csv | head -1)
expect_match "inference: decode tokens/s column" "$hdr" 'decode_tokens_s'
hdr=$("$GPUX" fit 8 --method full --tokens 300 --mfu 40% --format csv | head -1)
expect_match "training: run time and cost columns" "$hdr" 'train_hours,run_cost'
expect_eq "training hours scale with tokens (300B = 300 x 1B)" \
  "$(jq -n --argjson a "$("$GPUX" fit 8 --tokens 1 --format json | jq '.[] | select(.gpu == "h100-sxm") | .train_hours')" \
          --argjson b "$("$GPUX" fit 8 --tokens 300B --format json | jq '.[] | select(.gpu == "h100-sxm") | .train_hours')" '($b / $a - 300 | fabs) < 1e-6')" true
expect_eq "--mfu 0.4 = --mfu 40%" "$("$GPUX" fit 8 --mfu 0.4 --format csv)" "$("$GPUX" fit 8 --mfu 40% --format csv)"
for m in full lora qlora infer-fp16 infer-fp8 infer-int8 infer-int4 diffusion; do
  "$GPUX" fit 13 --method "$m" --format json >"$TMPD/m.json" 2>"$TMPD/err"
  expect_eq "fit --method $m exits 0 with 15 rows" "$?:$(jq length "$TMPD/m.json")" "0:15"
done
expect_match "a diffusion preset defaults to the diffusion method" "$("$GPUX" fit sdxl | tail -1)" 'Diffusion'
expect_match "a preset's name is in the assumptions line" "$("$GPUX" fit llama-3.1-8b --method lora | tail -1)" '^Llama 3.1 8B'
expect_match "a typed size says its architecture is guessed" "$("$GPUX" fit 8 | tail -1)" 'guessed'

# ---- DeepSpeed's estimator (docs/code-docs/source/memory.rst): t5-3b, 2851M
# parameters, 1 node of 8 GPUs, ZeRO-2: 15.93 GB per GPU, 5.31 with the
# optimizer offloaded (GiB; model states only, no activations)
ds2() { "$GPUX" fit 2.851 --gpus 8 --zero 2 "$@" --format json |
  jq -r '.[0] | (.mem_weights_gb + .mem_gradients_gb + .mem_optimizer_gb) * 1e9 / 1073741824 * 100 | round / 100'; }
expect_eq "DeepSpeed ZeRO-2 estimator, 8 GPUs: 15.93 GiB" "$(ds2)" 15.93
expect_eq "DeepSpeed ZeRO-2 estimator, offload: 5.31 GiB" "$(ds2 --offload optimizer)" 5.31
expect_match "offload without ZeRO is refused" "$("$GPUX" fit 7 --zero 0 --offload all 2>&1)" 'ZeRO stage'

# ---- architecture options, the guess and its flag -------------------------------------------
expect_eq "a size is flagged architecture: guessed in json" "$("$GPUX" fit 7 --format json | jq -r '.[0].architecture')" guessed
expect_eq "a preset: published" "$("$GPUX" fit llama-3.1-8b --format csv | sed -n 2p | grep -o published)" published
expect_eq "all four given: given" \
  "$("$GPUX" fit 7 --layers 32 --hidden 4096 --heads 32 --kv-heads 8 --format json | jq -r '.[0].architecture')" given
expect_match "the guess names the config it took" "$("$GPUX" fit 65 | tail -1)" 'guessed from the size \(LLaMA 65B\)'
# Llama 2 7B (MHA, 32 KV heads) at 4096 tokens: 2 x 32 x 4096 x 2 B = 512 KiB/token = 2.15 GB
kv() { "$GPUX" fit 7 --method infer-fp16 --seq 4096 "$@" --format json | jq -r '.[0].mem_kv_cache_gb * 100 | round / 100'; }
expect_eq "guessed 7B: multi-head KV cache (Llama 2 7B)" "$(kv)" 2.15
expect_eq "--kv-heads 8: a quarter" "$(kv --kv-heads 8)" 0.54
expect_eq "--kv-cache fp8: half" "$(kv --kv-cache fp8)" 1.07
expect_match "KV heads must divide the heads" "$("$GPUX" fit 7 --heads 32 --kv-heads 5 2>&1)" 'divide'

# ---- GPUs in realistic groups -------------------------------------------------------------------
expect_eq "GPUs needed are 1, 2, 4, 8 or multiples of 8" \
  "$("$GPUX" fit 405 --method full --format json | jq -c '[.[].job_gpus | select(. > 0) | (. == 1 or . == 2 or . == 4 or . % 8 == 0)] | all')" true
expect_eq "per GPU at N fits the GPU; one GPU is the whole job" \
  "$("$GPUX" fit 405 --method full --format json | jq -c '[.[] | select(.job_gpus > 1) | (.job_mem_gb <= .job_avail_gb and .job_mem_one_gpu_gb > .job_avail_gb)] | all')" true

# ---- the panel's options in the CLI ----------------------------------------------------------
expect_eq "--lora-rank 64 adds optimizer state" \
  "$(jq -n --argjson a "$("$GPUX" fit 8 --method lora --format json | jq '.[0].mem_optimizer_gb')" \
          --argjson b "$("$GPUX" fit 8 --method lora --lora-rank 64 --format json | jq '.[0].mem_optimizer_gb')" '$b > 3.9 * $a')" true
expect_eq "--overhead 0 --margin 0: no margin" "$("$GPUX" fit 8 --overhead 0 --margin 0 --format json | jq '.[0].mem_margin_gb')" 0
# the fit itself, without the live prices (they drift between two runs)
fit_only() { "$GPUX" fit 8 "$@" --format json | jq -c '[.[] | del(.price, .job_cost, .run_cost, .price_cents, .job_cost_cents, .run_cost_cents)]'; }
expect_eq "--margin 20% = --margin 0.2" "$(fit_only --margin 20%)" "$(fit_only --margin 0.2)"
expect_eq "--bw-efficiency halves the speed (no per-layer cost)" \
  "$(jq -n --argjson a "$("$GPUX" fit 8 --method infer-int4 --bw-efficiency 50% --layer-us 0 --format json | jq '.[] | select(.gpu == "h200") | .decode_tokens_s')" \
          --argjson b "$("$GPUX" fit 8 --method infer-int4 --bw-efficiency 25% --layer-us 0 --format json | jq '.[] | select(.gpu == "h200") | .decode_tokens_s')" '($a / $b - 2 | fabs) < 1e-9')" true
expect_eq "--layer-us: a per-layer cost makes decoding slower" \
  "$(jq -n --argjson a "$("$GPUX" fit 8 --method infer-int4 --layer-us 0 --format json | jq '.[] | select(.gpu == "h200") | .decode_tokens_s')" \
          --argjson b "$("$GPUX" fit 8 --method infer-int4 --format json | jq '.[] | select(.gpu == "h200") | .decode_tokens_s')" '$b < $a')" true
expect_eq "--flash-attention drops the attention scores" \
  "$(jq -n --argjson a "$("$GPUX" fit 8 --no-checkpointing --seq 8192 --format json | jq '.[0].mem_activations_gb')" \
          --argjson b "$("$GPUX" fit 8 --no-checkpointing --seq 8192 --flash-attention --format json | jq '.[0].mem_activations_gb')" '$b < $a / 2')" true
expect_eq "--pure-bf16: 8 bytes of states per parameter with Adam (paper accounting)" \
  "$("$GPUX" fit 10 --zero 0 --pure-bf16 --format json | jq '.[0] | (.mem_weights_gb + .mem_gradients_gb + .mem_optimizer_gb) | round')" 80
expect_eq "--chunked-loss: smaller logits" \
  "$(jq -n --argjson a "$("$GPUX" fit 8 --seq 8192 --format json | jq '.[0].mem_activations_gb')" \
          --argjson b "$("$GPUX" fit 8 --seq 8192 --chunked-loss --format json | jq '.[0].mem_activations_gb')" '$b < $a')" true
expect_eq "--resolution and --frames: a bigger video needs more" \
  "$(jq -n --argjson a "$("$GPUX" fit wan2.1-t2v-14b --resolution 832x480 --format json | jq '.[0].mem_activations_gb')" \
          --argjson b "$("$GPUX" fit wan2.1-t2v-14b --format json | jq '.[0].mem_activations_gb')" '$b > 2 * $a')" true
expect_match "a bad resolution is refused" "$("$GPUX" fit sdxl --resolution 1024 2>&1)" 'width x height'

# ---- rows: --workload, --filter, --sort -------------------------------------------------------
expect_eq "--workload finetune: its 9 GPUs" "$("$GPUX" fit 70 --method qlora --workload finetune --format json | jq length)" 9
expect_eq "--filter hopper" "$("$GPUX" fit 70 --filter hopper --format csv | cut -d, -f1 | tail -n +2 | tr '\n' ' ')" "h200 h100-nvl h100-sxm "
expect_eq "--sort job_avail_gb:desc: B300 first" "$("$GPUX" fit 70 --sort job_avail_gb:desc --format csv | sed -n 2p | cut -d, -f1)" b300
expect_eq "--sort cheapest: GPUs that cannot take the job come last" \
  "$("$GPUX" fit 70 --method full --zero 0 --sort cheapest --format json | jq -c '[.[].gpus_run > 0] | . == (sort | reverse)')" true

# ---- the job's cost per hour at the live best ask (local demo exchange) -----------------
"$GPUX" fit 70 --method qlora --format json >"$TMPD/c.json" 2>/dev/null
expect_eq "job_cost = GPUs it runs on x best ask, for every priced GPU" \
  "$(jq -c '[.[] | select(.price != null and .gpus_run > 0)] | (length > 0) and all(.job_cost == .gpus_run * .price)' "$TMPD/c.json")" true
expect_eq "job_cost_cents and price_cents are job_cost and price (the old names stay one release)" \
  "$(jq -c '[.[] | select(.price != null)] | (length > 0) and all(.job_cost_cents == .job_cost and .price_cents == .price)' "$TMPD/c.json")" true
"$GPUX" fit 7 --method full --format json >"$TMPD/r.json" 2>/dev/null
expect_eq "run_cost_cents is run_cost, for training" \
  "$(jq -c '[.[] | select(.run_cost != null)] | (length > 0) and all(.run_cost_cents == .run_cost)' "$TMPD/r.json")" true
expect_eq "--sort cheapest: job cost ascending among priced GPUs" \
  "$("$GPUX" fit 70 --method qlora --sort cheapest --format json 2>/dev/null | jq -c '[.[] | select(.job_cost != null) | .job_cost] | (length > 0) and . == sort')" true

# ---- a model typed as people write it: words of a preset's name -------------------------------
"$GPUX" fit llama-3-70b --method qlora --format json >"$TMPD/w.json" 2>"$TMPD/err"
expect_eq "fit llama-3-70b exits 0" "$?" 0
# the fit itself, without the live prices (they drift between two runs)
expect_eq "llama-3-70b: the same answer as the preset llama-3.1-70b" \
  "$(jq -c '[.[] | del(.price, .job_cost, .run_cost, .price_cents, .job_cost_cents, .run_cost_cents)]' "$TMPD/w.json")" \
  "$("$GPUX" fit llama-3.1-70b --method qlora --format json 2>/dev/null | jq -c '[.[] | del(.price, .job_cost, .run_cost, .price_cents, .job_cost_cents, .run_cost_cents)]')"
expect_eq "llama-3-70b: stderr says which preset it took" "$(cat "$TMPD/err")" \
  'gpux: fit: "llama-3-70b" taken as the preset llama-3.1-70b (Llama 3.1 70B)'
"$GPUX" fit "Llama 3.1 70B" --format csv >/dev/null 2>"$TMPD/err"
expect_eq "the preset's own name: nothing on stderr" "$(cat "$TMPD/err")" ""
"$GPUX" fit "llama 70" --format csv >"$TMPD/out" 2>"$TMPD/err"
expect_eq "fit 'llama 70' (two presets): usage error 2" "$?" 2
expect_eq "ambiguous model: nothing on stdout" "$(cat "$TMPD/out")" ""
expect_eq "ambiguous model: both candidates named" "$(cat "$TMPD/err")" \
  'gpux: fit: "llama 70" names more than one preset: llama-3.1-70b, llama-2-70b; type one of them'

# ---- the machines a job needs (node shape), as numbers in csv/json -------------------------
"$GPUX" fit llama-3.1-405b --method infer-fp8 --format json >"$TMPD/n.json"
expect_eq "405B FP8 on H100 SXM: 1 node of 8 over NVLink" \
  "$(jq -c '.[] | select(.gpu == "h100-sxm") | [.gpus_run, .node_gpus, .nodes, .tp, .interconnect, .machines]' "$TMPD/n.json")" \
  '[8,8,1,8,"nvlink","1 node of 8 (NVLink)"]'
expect_eq "405B FP8 on H100 NVL: its bridge pairs two, a node of 8 is PCIe" \
  "$(jq -c '.[] | select(.gpu == "h100-nvl") | [.node_gpus, .interconnect]' "$TMPD/n.json")" '[8,"pcie"]'
expect_eq "405B FP8 on MI300X: Infinity Fabric" \
  "$(jq -c '.[] | select(.gpu == "mi300x") | .interconnect' "$TMPD/n.json")" '"infinity-fabric"'
expect_eq "70B full training on H100 SXM: 3 nodes of 8" \
  "$("$GPUX" fit llama-3.1-70b --format json | jq -c '.[] | select(.gpu == "h100-sxm") | [.gpus_run, .node_gpus, .nodes, .machines]')" \
  '[24,8,3,"3 nodes of 8 (NVLink)"]'
expect_eq "one GPU: no link needed (interconnect null)" \
  "$("$GPUX" fit 8 --method infer-int4 --format json | jq -c '.[] | select(.gpu == "h200") | [.node_gpus, .nodes, .interconnect, .machines]')" \
  '[1,1,null,"1 GPU"]'
expect_eq "machines in csv are language-neutral" \
  "$("$GPUX" --lang pt-PT fit llama-3.1-405b --method infer-fp8 --format csv | grep '^h100-sxm' | grep -c '1 node of 8 (NVLink)')" 1

# ---- any model from its config.json, hub ids ---------------------------------------------------
for f in Llama-3.1-8B Mixtral-8x7B-v0.1 Qwen3-30B-A3B DeepSeek-V3 gemma-3-27b-it Llama-4-Scout-17B-16E; do
  "$GPUX" fit --config "tests/data/hf/$f/config.json" --method infer-fp8 --format json >"$TMPD/cfg.json" 2>"$TMPD/err"
  expect_eq "--config $f: exits 0, nothing on stderr" "$?:$(cat "$TMPD/err")" "0:"
  expect_eq "--config $f: architecture config" "$(jq -r '.[0].architecture' "$TMPD/cfg.json")" config
done
expect_eq "--config Mixtral: every expert in memory (46.7 B at FP8)" \
  "$(jq -r '.[] | select(.gpu == "b300") | .mem_weights_gb * 10 | round / 10' "$TMPD/cfg.json" >/dev/null; "$GPUX" fit --config tests/data/hf/Mixtral-8x7B-v0.1/config.json --method infer-fp8 --format json | jq -r '.[] | select(.gpu == "b300") | .mem_weights_gb * 10 | round / 10')" 46.7
out=$("$GPUX" fit --config tests/data/hf/Mixtral-8x7B-v0.1/config.json --method infer-fp16 --gpus 8)
expect_match "--config Mixtral: the note gives total and active" "$out" 'Mixtral-8x7B-v0.1 \(47 B total, 13 B active, 8 experts, 2 per token, expert parallel over 8 GPUs \(1 expert each\)\)'
"$GPUX" fit --config tests/data/hf/bad/partial.json --format json >"$TMPD/p.json" 2>"$TMPD/err"
expect_eq "--config partial: completed, flagged guessed" "$?:$(jq -r '.[0].architecture' "$TMPD/p.json")" "0:guessed"
expect_match "--config partial: the note names the guesses" "$("$GPUX" fit --config tests/data/hf/bad/partial.json)" 'not in the config, taken as: vocab_size \(32000\)'
"$GPUX" fit --config tests/data/hf/bad/no-layers.json >"$TMPD/out" 2>"$TMPD/err"
expect_eq "--config without layers: usage error 2, nothing on stdout" "$?:$(cat "$TMPD/out")" "2:"
expect_match "--config without layers: says what is missing" "$(cat "$TMPD/err")" 'num_hidden_layers'
"$GPUX" fit --config tests/data/hf/bad/not-json.json >/dev/null 2>"$TMPD/err"
expect_match "--config not JSON: refused" "$(cat "$TMPD/err")" 'not a JSON object'
"$GPUX" fit 70 --config tests/data/hf/Llama-3.1-8B/config.json >/dev/null 2>"$TMPD/err"
expect_match "a size and --config: refused" "$(cat "$TMPD/err")" 'give the model once'
expect_eq "hub id: meta-llama/Llama-3.1-70B is the preset llama-3.1-70b" \
  "$("$GPUX" fit meta-llama/Llama-3.1-70B --format csv 2>/dev/null)" "$("$GPUX" fit llama-3.1-70b --format csv)"
expect_eq "hub id: Qwen/Qwen2.5-72B-Instruct is the preset qwen2.5-72b" \
  "$("$GPUX" fit Qwen/Qwen2.5-72B-Instruct --format csv 2>/dev/null)" "$("$GPUX" fit qwen2.5-72b --format csv)"
"$GPUX" fit meta-llama/Llama-3.3-70B-Instruct >"$TMPD/out" 2>"$TMPD/err"
expect_eq "unknown hub id: usage error 2" "$?" 2
expect_match "unknown hub id: says to pass its config.json" "$(cat "$TMPD/err")" 'pass its config.json: gpux fit --config PATH/config.json'

# ---- fine-tuning stacks --------------------------------------------------------------------------
u8=$("$GPUX" fit llama-3.1-8b --stack unsloth --format json | jq -r '.[] | select(.gpu == "rtx-4090") | [.job_fits, .job_mem_gb < 10] | @csv')
expect_eq "Unsloth QLoRA Llama 3.1 8B fits a 24 GB card, under 10 GB" "$u8" "true,true"
d8=$("$GPUX" fit llama-3.1-8b --method qlora --format json | jq '.[] | select(.gpu == "rtx-4090") | .job_mem_gb')
expect_eq "the Unsloth stack needs less than gpux's defaults" \
  "$(jq -n --argjson a "$d8" --argjson b "$("$GPUX" fit llama-3.1-8b --stack unsloth --format json | jq '.[] | select(.gpu == "rtx-4090") | .job_mem_gb')" '$b < $a')" true
expect_match "--stack peft: the paged optimizer is shown apart" \
  "$("$GPUX" fit llama-3.1-8b --stack peft --format json | jq -c '.[0] | [.mem_optimizer_gb, (.mem_paged_gb > 0)]')" '^\[0,true\]$'
"$GPUX" fit llama-3.1-8b --stack axolotl >/dev/null 2>"$TMPD/err"
expect_match "unknown --stack: refused with the accepted ones" "$(cat "$TMPD/err")" 'accepted: unsloth, peft, none'

# ---- table format: localized, the job columns, the assumptions --------------------------------
out=$("$GPUX" fit 70 --method qlora --lang pt-PT)
expect_match "pt-PT: header translated" "$(printf '%s\n' "$out" | head -1)" '^GPU +Por GPU com N'
expect_match "pt-PT: H200 row with decimal comma and ✓" "$(printf '%s\n' "$out" | grep '^H200')" '[0-9]+,[0-9] GB +141 GB +✓ +1'
expect_match "pt-PT: RTX 4090 does not fit ✗" "$(printf '%s\n' "$out" | grep '^RTX 4090')" '✗'
out=$("$GPUX" fit 70 --method qlora --ascii)
expect_eq "--ascii fit: only ASCII" "$(printf '%s' "$out" | LC_ALL=C grep -c '[^ -~]')" 0
expect_match "--ascii fit: yes/no for the fit" "$(printf '%s\n' "$out" | grep '^H200')" ' yes '

finish

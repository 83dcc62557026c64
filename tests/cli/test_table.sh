#!/bin/bash
# gpux table: the seed tables cell for cell (csv), the seeds' pt-PT strings
# (--format table --lang pt-PT), json, sorting, filtering, --ascii.
# Sources: ../shared/seeds/000_7d2d0ce89a47add6.txt (training table) and
# ../shared/seeds/002_f3322caf67fa1350.txt (fine-tuning table).
. "$(dirname "$0")/../lib.sh"

# ---- the 36 model-size cells of the seed tables, in csv --------------------
# training: "Treino completo, 1 GPU" / "Treino completo, 8 GPU"
training_want="b300 10 110
b200 9 70
mi325x 10 100
mi300x 9 75
h200 7 55
h100-nvl 4 35
h100-sxm 4 30
a100-sxm 4 30
a100-pcie 4 30"
# finetune: "QLoRA, modelo base" / "LoRA 16 bits, modelo base"
finetune_want="rtx-4090 15 7
rtx-5090 25 10
rtx-a6000 35 15
l40s 35 15
rtx-6000-ada 35 15
a100-sxm 60 25
h100-sxm 60 25
rtx-pro-6000 75 30
h200 110 45"

# pick columns by their header name (column ids are the contract)
csv_cols() { # file col...
  f=$1; shift
  awk -F, -v want="$*" 'NR == 1 { n = split(want, w, " "); for (i = 1; i <= NF; i++) idx[$i] = i; next }
    { line = ""; for (j = 1; j <= n; j++) line = line (j > 1 ? " " : "") $(idx[w[j]]); print line }' "$f"
}

"$GPUX" table training --format csv >"$TMPD/training.csv" 2>"$TMPD/err"
expect_eq "table training --format csv exits 0" "$?" 0
expect_eq "table training --format csv: nothing on stderr" "$(cat "$TMPD/err")" ""
expect_eq "training csv header: the column ids of data/workloads.json" \
  "$(head -1 "$TMPD/training.csv")" "gpu,name,arch,memory,memory_type,bandwidth,bf16,fit_full_1,fit_full_8,price,memory_gb,price_cents"
# the unit-named columns (the old names stay one release): the same figures
expect_eq "training csv: memory_gb and price_cents are memory and price, row for row" \
  "$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
     $c["memory"] != $c["memory_gb"] || $c["price"] != $c["price_cents"] { bad++ } END { print NR - 1, bad + 0 }' "$TMPD/training.csv")" \
  "$(($(wc -l <"$TMPD/training.csv") - 1)) 0"
expect_eq "training csv: the seed table's 18 model sizes (1 GPU / 8 GPU)" \
  "$(csv_cols "$TMPD/training.csv" gpu fit_full_1 fit_full_8)" "$training_want"

"$GPUX" table finetune --format csv >"$TMPD/finetune.csv"
expect_eq "finetune csv: the seed table's 18 model sizes (QLoRA / LoRA)" \
  "$(csv_cols "$TMPD/finetune.csv" gpu fit_qlora_1 fit_lora_1)" "$finetune_want"

# raw figures, locale-independent: the same csv in every language
expect_eq "training csv: memory, type, bandwidth, BF16 of H200 and B300 (unpublished = empty)" \
  "$(grep -E '^(h200|b300),' "$TMPD/training.csv" | cut -d, -f1,4-7)" "b300,288,HBM3e,,
h200,141,HBM3e,4800,989"
"$GPUX" table training --format csv --lang pt-PT >"$TMPD/training-pt.csv"
check "csv is the same whatever --lang" cmp -s "$TMPD/training.csv" "$TMPD/training-pt.csv"
LANGUAGE=de "$GPUX" table training --format csv >"$TMPD/training-de.csv"
check "csv is the same whatever LANGUAGE" cmp -s "$TMPD/training.csv" "$TMPD/training-de.csv"

# ---- pt-PT: the seeds' strings ------------------------------------------------
out=$("$GPUX" table training --lang pt-PT)
expect_eq "table training --lang pt-PT exits 0" "$?" 0
for s in "≈ 10 mil M" "≈ 110 mil M" "≈ 7 mil M" "≈ 55 mil M" "1.307 TFLOPS" "989 TFLOPS" \
         "4.800 GB/s" "2.039 GB/s" "Não publicado" "Tensor BF16" "Treino completo, 1 GPU" \
         "Treino completo, 8 GPU" "Largura de banda" "288 GB" "HBM3e"; do
  case "$out" in *"$s"*) ok "pt-PT table shows \"$s\"" ;; *) fail "pt-PT table shows \"$s\"" ;; esac
done
# the B300 row as the seed prints it: 288 GB, HBM3e, Não publicado x2, ≈ 10 / ≈ 110 mil M
expect_match "pt-PT B300 row" "$(printf '%s\n' "$out" | grep '^B300')" \
  '^B300 \(Blackwell Ultra\) +288 GB +HBM3e +Não publicado +Não publicado +≈ 10 mil M +≈ 110 mil M'
# aligned in terminal columns, not bytes: every line has the same display width
# header/rule/rows end at the same column except where the last cell is left empty
first=$(printf '%s\n' "$out" | sed -n 2p | wc -m)
row=$(printf '%s\n' "$out" | grep '^MI325X' | wc -m)
expect_eq "the rule and a full row have the same width in characters" "$row" "$first"

out=$("$GPUX" table finetune --lang pt-PT)
for s in "≈ 15 mil M" "≈ 110 mil M" "1.008 GB/s" "1.792 GB/s"; do
  case "$out" in *"$s"*) ok "pt-PT finetune shows \"$s\"" ;; *) fail "pt-PT finetune shows \"$s\"" ;; esac
done

# English
out=$("$GPUX" table training --lang en)
expect_match "English B300 row" "$(printf '%s\n' "$out" | grep '^B300')" 'Not published +Not published +≈ 10B +≈ 110B'
expect_match "English header" "$(printf '%s\n' "$out" | head -1)" '^GPU +Memory +Memory type +Bandwidth +Tensor BF16 +Full training, 1 GPU +Full training, 8 GPUs +Price/h$'

# ---- json --------------------------------------------------------------------------
# an unreachable exchange: the table comes without prices (and a warning on stderr)
GPUX_API=http://127.0.0.1:9 "$GPUX" table training --format json >"$TMPD/t.json" 2>/dev/null
check "json parses" jq -e . "$TMPD/t.json"
expect_eq "json: 9 rows" "$(jq length "$TMPD/t.json")" 9
expect_eq "json: B300 bandwidth is null (not published)" "$(jq -c '.[0] | [.gpu, .bandwidth, .bf16, .fit_full_1, .fit_full_8]' "$TMPD/t.json")" '["b300",null,null,10,110]'
expect_eq "json: H200 raw numbers" "$(jq -c '.[] | select(.gpu == "h200") | [.memory, .bandwidth, .bf16, .memory_type]' "$TMPD/t.json")" '[141,4800,989,"HBM3e"]'
expect_eq "json: exchange unreachable -> price null" "$(jq -c '[.[].price] | unique' "$TMPD/t.json")" '[null]'
for w in inference imagegen rendering hpc; do
  "$GPUX" table "$w" --format json >"$TMPD/$w.json" 2>"$TMPD/err"
  check "table $w --format json is valid json with rows" jq -e 'length > 0 and (.[0] | has("gpu") and has("price"))' "$TMPD/$w.json"
done

# ---- sort and filter ------------------------------------------------------------------
ids() { cut -d, -f1 | tail -n +2 | tr '\n' ' ' | sed 's/ $//'; }
expect_eq "--sort bandwidth: unpublished last" \
  "$("$GPUX" table training --format csv --sort bandwidth | ids)" \
  "a100-pcie a100-sxm h100-sxm h100-nvl h200 mi300x mi325x b200 b300"
expect_eq "--sort bandwidth:desc: unpublished still last" \
  "$("$GPUX" table training --format csv --sort bandwidth:desc | ids)" \
  "mi325x mi300x h200 h100-nvl h100-sxm a100-sxm a100-pcie b200 b300"
expect_eq "--sort memory: ties (80 GB) by name" \
  "$("$GPUX" table training --format csv --sort memory | ids)" \
  "a100-pcie a100-sxm h100-sxm h100-nvl h200 b200 mi300x mi325x b300"
expect_eq "--sort memory:desc: ties by name too" \
  "$("$GPUX" table training --format csv --sort memory:desc | ids)" \
  "b300 mi325x mi300x b200 h200 h100-nvl a100-pcie a100-sxm h100-sxm"
expect_eq "--sort=fit_qlora_1:desc (= form)" \
  "$("$GPUX" table finetune --format csv --sort=fit_qlora_1:desc | ids)" \
  "h200 rtx-pro-6000 a100-sxm h100-sxm l40s rtx-6000-ada rtx-a6000 rtx-5090 rtx-4090"
expect_eq "--filter hopper" "$("$GPUX" table training --format csv --filter hopper | ids)" "h200 h100-nvl h100-sxm"
out=$("$GPUX" table training --filter AMD)
expect_match "--filter in table format says N of M shown" "$(printf '%s\n' "$out" | tail -1)" '^2 of 9 shown$'
expect_eq "--filter nothing: just the header in csv" "$("$GPUX" table training --format csv --filter zzz | wc -l)" 1
expect_eq "global flags after the command: same as before it" \
  "$("$GPUX" --lang pt-PT --format csv table hpc)" "$("$GPUX" table hpc --format csv --lang pt-PT)"

# ---- live prices (the local demo exchange gpux starts by itself) ----------------------
"$GPUX" table training --format json --sort price >"$TMPD/p.json" 2>"$TMPD/err"
if jq -e '[.[].price] | all(. != null)' "$TMPD/p.json" >/dev/null 2>&1; then
  expect_eq "live prices: integer cents, ascending with --sort price" \
    "$(jq -c '[.[].price] | (all(type == "number" and . == floor and . > 0)) and (. == sort)' "$TMPD/p.json")" true
  expect_eq "live prices: --sort price:desc is the reverse order of prices" \
    "$("$GPUX" table training --format json --sort price:desc 2>/dev/null | jq -c '[.[].price] | . == (sort | reverse)')" true
  out=$("$GPUX" table training --lang pt-PT 2>/dev/null)
  expect_match "live prices in pt-PT: US\$ with a decimal comma" "$(printf '%s\n' "$out" | grep '^H200')" 'US\$ [0-9]+,[0-9]{2}$'
else
  fail "live prices from the local demo exchange" "$(cat "$TMPD/err")"
fi

# ---- --ascii ------------------------------------------------------------------------------
out=$("$GPUX" table training --lang pt-PT --ascii)
expect_eq "--ascii: only ASCII bytes" "$(printf '%s' "$out" | LC_ALL=C grep -c '[^ -~]')" 0
expect_match "--ascii: ~ for ≈ and Nao publicado" "$(printf '%s\n' "$out" | grep '^B300')" 'Nao publicado +~ 10 mil M'

# ---- LANGUAGE picks the language when no --lang ------------------------------------------------
expect_match "LANGUAGE=pt_PT selects pt-PT" "$(LANGUAGE=pt_PT LC_ALL=C.UTF-8 "$GPUX" table training | head -1)" 'Memória'
expect_match "--lang wins over LANGUAGE" "$(LANGUAGE=pt_PT "$GPUX" --lang en table training | head -1)" 'Memory'

finish

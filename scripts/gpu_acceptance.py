#!/usr/bin/env python3
"""The summary of the first look at a GPU (scripts/gpu-first-look.sh, packed as
.gpu/first-look.sh by scripts/gpu-pack.sh): reads the logs its steps left and writes
the whole Markdown summary. Python 3 standard library only; no GPU.

  gpu_acceptance.py first-look LOGDIR [MODEL_JSON]   the summary, on stdout
  gpu_acceptance.py ncu-metrics QUERY_OUTPUT         the wanted counters this ncu has

LOGDIR holds, per step, NAME.log (its output: gpu_first_look's `RESULT step=...
key=value` lines, libtest's, compute-sanitizer's in `=== TOOL` sections) and
NAME.rc (`rc=N seconds=S budget=B`; rc 124: cut at its budget, 125: not started),
and ncu.csv (`ncu --csv --page raw` of the bootstrap kernels). Every figure that
did not come from a GPU is marked modelled (MODEL_JSON: scripts/kernel-report.py
--json).
"""

import csv
import io
import json
import re
import sys
from pathlib import Path

# Nsight Compute counters that measure what the static model predicts, per PBS.
# Each row: (label, counters summed, divisor, key of the model's per-PBS figures).
NCU_PER_PBS = [
    ("warp instructions", ["smsp__inst_executed.sum"], 1, "warp instructions"),
    ("FP64 warp instructions (pipe)", ["smsp__inst_executed_pipe_fp64.sum"], 1,
     "FP64 warp instructions"),
    ("FP64 thread instructions / 32 (DFMA+DADD+DMUL)",
     ["sm__sass_thread_inst_executed_op_dfma_pred_on.sum",
      "sm__sass_thread_inst_executed_op_dadd_pred_on.sum",
      "sm__sass_thread_inst_executed_op_dmul_pred_on.sum"], 32, "FP64 warp instructions"),
    ("L1/shared wavefronts (LSU)", ["l1tex__data_pipe_lsu_wavefronts.sum"], 1,
     "L1/shared wavefronts"),
    ("shared wavefronts", ["l1tex__data_pipe_lsu_wavefronts_mem_shared.sum"], 1,
     "shared wavefronts"),
    ("L2 bytes", ["lts__t_bytes.sum"], 1, "L2 bytes (key)"),
    ("DRAM bytes read (model: one key stream per wave)", ["dram__bytes_read.sum"], 1,
     "DRAM bytes (key, one stream per wave)"),
]
NCU_TIME = "gpu__time_duration.sum"
NCU_OCCUPANCY = "sm__warps_active.avg.pct_of_peak_sustained_active"
NCU_INFO = [
    ("SM throughput, % of peak", "sm__throughput.avg.pct_of_peak_sustained_elapsed"),
    ("FP64 pipe, % of peak", "sm__inst_executed_pipe_fp64.avg.pct_of_peak_sustained_active"),
    ("L1/shared throughput, % of peak", "l1tex__throughput.avg.pct_of_peak_sustained_active"),
    ("SM clock, Hz", "sm__cycles_elapsed.avg.per_second"),
    ("DRAM bytes written", "dram__bytes_write.sum"),
]
NCU_METRICS = sorted({m for _, ms, _, _ in NCU_PER_PBS for m in ms}
                     | {NCU_TIME, NCU_OCCUPANCY} | {m for _, m in NCU_INFO})

UNIT_SCALE = {"byte": 1, "Kbyte": 1e3, "Mbyte": 1e6, "Gbyte": 1e9, "Tbyte": 1e12,
              "nsecond": 1e-9, "usecond": 1e-6, "msecond": 1e-3, "second": 1,
              "hz": 1, "Khz": 1e3, "Mhz": 1e6, "Ghz": 1e9,
              "cycle/second": 1, "cycle/nsecond": 1e9, "cycle/usecond": 1e6}


def fmt(v):
    """A number for a table: integers with separators, others to 3 significant digits."""
    if v is None:
        return "-"
    if abs(v) >= 1000 or float(v).is_integer():
        return f"{v:,.0f}"
    return f"{v:.3g}"


def read_status(log):
    """(rc, seconds) from LOG's .rc file; (None, None) when the run left none."""
    rc_file = log.with_suffix(".rc")
    if not rc_file.exists():
        return None, None
    fields = dict(f.split("=", 1) for f in rc_file.read_text().split() if "=" in f)
    try:
        return int(fields.get("rc", "")), float(fields.get("seconds", "nan"))
    except ValueError:
        return None, None


def outcome(rc):
    return {None: "not run", 0: "ok", 124: "TIMEOUT", 127: "not found"}.get(rc, f"FAIL (rc {rc})")


# ---------------------------------------------------------------- libtest

def parse_libtest(text):
    """Totals of libtest's `test result:` lines, the SKIPPED lines and failed tests."""
    total = dict(passed=0, failed=0, ignored=0, filtered=0, results=0)
    for m in re.finditer(r"test result: \w+\. (\d+) passed; (\d+) failed; (\d+) ignored; "
                         r"\d+ measured; (\d+) filtered out", text):
        for key, value in zip(("passed", "failed", "ignored", "filtered"), m.groups()):
            total[key] += int(value)
        total["results"] += 1
    total["skipped"] = len(re.findall(r"^SKIPPED\b", text, re.M))
    total["failures"] = re.findall(r"^test (\S+) \.\.\. FAILED", text, re.M)
    return total


# ---------------------------------------------------------------- compute-sanitizer

def parse_sanitizer(text):
    """Errors compute-sanitizer reported, or None when it printed no summary."""
    counts = [int(m.group(1)) for m in re.finditer(r"ERROR SUMMARY: (\d+) errors?", text)]
    # racecheck's own line (hazards counted as errors and warnings); if a version
    # prints both lines, they count the same errors.
    counts += [int(m.group(1)) for m in re.finditer(
        r"RACECHECK SUMMARY: \d+ hazards? displayed \((\d+) errors?, \d+ warnings?\)", text)]
    return max(counts, default=None)


def load_model(path):
    """The kernel report's modelled figures, or None."""
    if not path or not Path(path).exists():
        return None
    return json.loads(Path(path).read_text())


def model_gpu(model, arch=90):
    """(GPU name, its kernels) of the model for an architecture."""
    for name, kernels in (model or {}).get("kernels", {}).items():
        if any(k.get("arch") == arch for k in kernels.values()):
            return name, kernels
    return None, {}


# ---------------------------------------------------------------- Nsight Compute

def ncu_wanted(query_text):
    """(available, missing) of NCU_METRICS by their base names in `ncu --query-metrics`."""
    names = set(re.findall(r"^\s*([a-z0-9]+__\w+)", query_text, re.M))
    have = [m for m in NCU_METRICS if m.split(".")[0] in names]
    return have, [m for m in NCU_METRICS if m not in have]


def number(text, unit):
    text = text.strip().replace(",", "")
    if text in ("", "n/a", "N/A"):
        return None
    try:
        return float(text) * UNIT_SCALE.get(unit.strip(), 1)
    except ValueError:
        return None


def parse_ncu_csv(text):
    """Rows of `ncu --csv --page raw` as dicts: kernel name, grid x, CC, and each
    metric in base units (the units row, if any, applied)."""
    lines = [l for l in text.splitlines() if l.startswith('"')]
    table = list(csv.reader(io.StringIO("\n".join(lines))))
    head = next((i for i, r in enumerate(table) if "Kernel Name" in r), None)
    if head is None:
        return []
    names = table[head]
    body = table[head + 1:]
    units = [""] * len(names)
    if body and not body[0][0].strip():
        units, body = body[0], body[1:]
    rows = []
    for r in body:
        if len(r) != len(names):
            continue
        row = dict(zip(names, r))
        grid = re.findall(r"\d+", row.get("Grid Size", ""))
        out = dict(kernel=row["Kernel Name"], grid_x=int(grid[0]) if grid else None,
                   cc=row.get("CC", ""))
        for name, value, unit in zip(names, r, units):
            if "__" in name:
                out[name] = number(value, unit)
        rows.append(out)
    return rows


def short_kernel(name):
    return re.sub(r"\(.*", "", name).strip()


def ncu_section(csv_path, model_path=None):
    rows = parse_ncu_csv(Path(csv_path).read_text(errors="replace"))
    if not rows:
        log = Path(csv_path).with_suffix(".log")
        errors = [l for l in log.read_text(errors="replace").splitlines()
                  if "ERROR" in l] if log.exists() else []
        return "No kernel in the Nsight Compute report.\n" + "".join(
            f"\n    {l}" for l in errors[:10]) + "\n"
    model = load_model(model_path)
    out = []
    for row in rows:
        name = short_kernel(row["kernel"])
        arch = int(float(row["cc"]) * 10) if row["cc"].replace(".", "").isdigit() else 90
        gpu, kernels = model_gpu(model, arch)
        m = kernels.get(name)
        groups = m["groups"] if m else (2 if "cluster" in name else 1)
        batch = (row["grid_x"] or 0) // groups
        out.append(f"\n#### {name}, grid {row['grid_x']} = {batch} bootstraps "
                   f"(modelled: {gpu or 'no model'})\n")
        out.append("| figure | measured | modelled | measured / modelled |")
        out.append("|---|---|---|---|")

        def line(label, measured, modelled):
            ratio = f"{measured / modelled:.2f}" if measured and modelled else "-"
            out.append(f"| {label} | {fmt(measured)} | {fmt(modelled)} | {ratio} |")

        for label, metrics, div, key in NCU_PER_PBS:
            values = [row.get(x) for x in metrics]
            measured = (sum(values) / div / batch if batch and None not in values else None)
            line(label + " per PBS", measured, m["per_pbs"].get(key) if m else None)
        secs = row.get(NCU_TIME)
        if m and batch <= m["in_flight"]:
            # One wave: the time is a latency, the model's single-PBS figure.
            line("kernel time, ms (model: one PBS alone)", secs * 1e3 if secs else None,
                 m["latency_ms"])
        else:
            line("PBS/s (one launch; ncu locks the clocks)",
                 batch / secs if secs and batch else None, m["batched_pbs_per_s"] if m else None)
        occupancy = 100 * m["warps_per_sm"] / m["max_warps"] if m else None
        line("warps active, % of peak", row.get(NCU_OCCUPANCY), occupancy)
        for label, metric in NCU_INFO:
            line(label, row.get(metric), None)
    return "\n".join(out) + "\n"


# ---------------------------------------------------------------- first look

# Skips that are right on one real GPU: tests of the fake driver's settings and of
# several GPUs. Any other skip (no CUDA device, no compiler) is a failure.
EXPECTED_SKIP = re.compile(r"fake CUDA driver|fake driver|needs two GPUs|needs \d+ GPUs")

# TFHE-rs's published H100 figures (its GPU benchmarks: classical and multi-bit
# KS+PBS latency, FheUint64 addition latency on one H100, additions/s on 8xH100).
TFHE_RS_H100 = {"ks_pbs classical": "4.31 ms", "ks_pbs multi-bit": "1.13 ms",
                "add classical": "9.52 ms", "guide": "510/s on 8xH100"}

FIRST_LOOK_STEPS = ["environment", "bootstrap", "integer", "squash", "operation-tests", "speed",
                    "kernels", "guide", "transfers", "tests", "sanitize", "ncu", "failure-rate"]

# The kernels step's names of the two bootstrap kernels, and the model's for N = 2048.
KERNELS = [("single_block", "one block", "programmable_bootstrap_2048_u64"),
           ("cluster", "one cluster", "programmable_bootstrap_cluster_2048_u64")]


def results(text):
    """The `RESULT step=... key=value` lines of gpu_first_look, as dicts."""
    out = []
    for line in text.splitlines():
        if line.startswith("RESULT "):
            out.append(dict(f.split("=", 1) for f in line.split()[1:] if "=" in f))
    return out


def libtest_verdict(text, rc):
    """`ok`, or `FAIL (why)`, of a libtest run's output and exit status: a failed
    test, no libtest result, a filter that matched no test, or a skip that a real
    GPU should not need (see EXPECTED_SKIP)."""
    t = parse_libtest(text)
    skips = re.findall(r"^SKIPPED (.*)$", text, re.M)
    unexpected = [s for s in skips if not EXPECTED_SKIP.search(s)]
    if rc not in (0, None):
        return outcome(rc)
    if t["results"] == 0:
        return "FAIL (no libtest result)"
    if t["passed"] + t["failed"] == 0:
        return "FAIL (no test matched the filters)"
    if unexpected:
        return f"FAIL ({len(unexpected)} unexpected skips: {unexpected[0][:80]})"
    return "ok"


def sanitizer_errors(text):
    """Errors per compute-sanitizer tool in a log of `=== TOOL` sections (None: the
    tool printed no summary)."""
    errors = {}
    for section in re.split(r"^=== ", text, flags=re.M)[1:]:
        tool, _, body = section.partition("\n")
        counts = [parse_sanitizer(chunk) for chunk in body.split("========= COMPUTE-SANITIZER")]
        counts = [c for c in counts if c is not None]
        errors[tool.strip()] = sum(counts) if counts else None
    return errors


def first_look_facts(logdir):
    """Each step's status, results and logs."""
    facts = {}
    for name in FIRST_LOOK_STEPS:
        log = Path(logdir) / f"{name}.log"
        rc, secs = read_status(log)
        text = log.read_text(errors="replace") if log.exists() else ""
        budget = None
        rc_file = log.with_suffix(".rc")
        if rc_file.exists():
            budget = dict(f.split("=", 1) for f in rc_file.read_text().split() if "=" in f).get(
                "budget")
        facts[name] = dict(rc=rc, seconds=secs, budget=budget, text=text, results=results(text))
    return facts


def step_verdict(name, fact):
    """`ok`, `not run`, `skipped (...)`, `INCOMPLETE (...)` or `FAIL (...)`."""
    rc, text = fact["rc"], fact["text"]
    if rc is None:
        return "not run"
    if rc == 125:
        return "INCOMPLETE (no time left)"
    if rc == 124:
        return "INCOMPLETE (cut at its budget)"
    if name in ("operation-tests", "tests"):
        verdicts = [libtest_verdict(chunk, 0) for chunk in re.split(r"(?=^running \d+ tests?$)",
                                                                    text, flags=re.M)
                    if chunk.startswith("running ")]
        bad = [v[len("FAIL ("):-1] for v in verdicts if v != "ok"]
        if bad:
            return "FAIL (" + "; ".join(bad) + ")"
        if rc != 0 or not verdicts:
            return outcome(rc) if rc else "FAIL (no libtest result)"
        return "ok"
    if name == "sanitize":
        errors = sanitizer_errors(text)
        if any(e for e in errors.values()):
            return "FAIL (" + ", ".join(f"{t}: {e} errors" for t, e in errors.items() if e) + ")"
        if any(e is None for e in errors.values()) or not errors:
            return "FAIL (a tool printed no summary)"
    return outcome(rc)


def first_look_summary(logdir, model_path=None):
    """The first look's summary: the verdict, the key numbers measured and modelled,
    then every step."""
    facts = first_look_facts(logdir)
    verdicts = {name: step_verdict(name, fact) for name, fact in facts.items()}
    env = facts["environment"]["text"]
    fake = "FAKE CUDA DRIVER" in env
    failed = [f"{n}: {v}" for n, v in verdicts.items() if v.startswith("FAIL")]
    cut = [f"{n}: {v}" for n, v in verdicts.items() if v.startswith("INCOMPLETE")]
    verdict = "FAIL" if failed else "INCOMPLETE" if cut else "PASS"
    text = [f"# gpufhe first look on a GPU{' (FAKE DRIVER: numbers mean nothing)' if fake else ''}\n",
            f"**Verdict: {verdict}**" + (" - " + "; ".join(failed + cut) if failed or cut else "")
            + "\n"]
    text.append(key_numbers(facts, load_model(model_path), fake))
    text.append("\n## Steps\n\n| step | result | seconds | budget |\n|---|---|---|---|\n")
    for name, fact in facts.items():
        text.append(f"| {name} | {verdicts[name]} | {fmt(fact['seconds'])} | "
                    f"{fact['budget'] or '-'} |\n")
    text.append("\n## Environment\n\n" + "".join(f"- {l}\n" for l in env.splitlines()
                                                  if l.strip()))
    for name in ("bootstrap", "integer", "squash", "speed", "guide", "failure-rate"):
        rows = facts[name]["results"]
        if rows:
            keys = [k for k in rows[0] if k != "step"]
            text.append(f"\n## {name}\n\n| " + " | ".join(keys) + " |\n|"
                        + "---|" * len(keys) + "\n")
            for r in rows:
                text.append("| " + " | ".join(r.get(k, "-") for k in keys) + " |\n")
    if facts["kernels"]["results"]:
        text.append(kernels_section(facts["kernels"]["results"]))
    if facts["sanitize"]["rc"] is not None:
        text.append("\n## compute-sanitizer (errors per tool)\n\n")
        for tool, errors in sanitizer_errors(facts["sanitize"]["text"]).items():
            text.append(f"- {tool}: {fmt(errors)}\n")
    csv_path = Path(logdir) / "ncu.csv"
    if csv_path.exists():
        text.append("\n## Nsight Compute: the bootstrap kernels, measured and modelled\n"
                    + ncu_section(csv_path, model_path))
    return "".join(text)


def kernel_rates(rows):
    """Per parameter set of the kernels step: the batch, PBS/s of each kernel (None:
    it did not run there, with the reason) and the kernel Auto took after the
    calibration."""
    out = {}
    for r in rows:
        entry = out.setdefault(r.get("params", "?"), dict(batch=r.get("batch", "-"), rates={},
                                                          unavailable={}, auto="-"))
        kernel = r.get("kernel", "")
        if kernel == "auto_after_calibration":
            entry["auto"] = r.get("chosen", "-")
        elif "per_second" in r:
            try:
                entry["rates"][kernel] = float(r["per_second"])
            except ValueError:
                pass
        elif "unavailable" in r:
            entry["unavailable"][kernel] = r["unavailable"]
    return out


def kernels_section(rows):
    """The bootstrap kernels side by side: PBS/s of one block and of one cluster per
    bootstrap on the same batch, their ratio, the faster, and what Auto took for such
    a batch once the calibration had timed them."""
    lines = ["\n## Bootstrap kernels side by side (the same batch)\n",
             "| params | batch | one block, PBS/s | one cluster, PBS/s | cluster / block | faster "
             "| Auto after calibration |", "|---|---|---|---|---|---|---|"]
    for params, e in kernel_rates(rows).items():
        single, cluster = (e["rates"].get(k) for k, _, _ in KERNELS)
        ratio = f"{cluster / single:.2f}" if single and cluster else "-"
        faster = ("cluster" if cluster > single else "single_block") if single and cluster \
            else "-"
        cells = [fmt(single) if single else "not run", fmt(cluster) if cluster else "not run"]
        lines.append(f"| {params} | {e['batch']} | {cells[0]} | {cells[1]} | {ratio} | {faster} | "
                     f"{e['auto']} |")
        for kernel, why in e["unavailable"].items():
            lines.append(f"\n{params}, {kernel}: {why.replace('_', ' ')}")
    return "\n".join(lines) + "\n"


def key_numbers(facts, model, fake):
    """The table of key numbers: measured, modelled (kernel report), TFHE-rs's."""
    gpu, kernels = model_gpu(model)
    mb = ((model or {}).get("multi_bit") or {}).get(gpu or "", {})
    speed = facts["speed"]["results"]
    unit = "measured (fake driver)" if fake else "measured"

    def pick(rows, **want):
        return [r for r in rows if all(r.get(k) == v for k, v in want.items())]

    def at(params, what, batch=None):
        rows = pick(speed, params=params, what=what)
        if batch is not None:
            rows = pick(rows, batch=str(batch))
        return rows

    def value(rows, key):
        try:
            return float(rows[-1][key]) if rows else None
        except (KeyError, ValueError):
            return None

    latency = min((k["latency_ms"] for k in kernels.values()), default=None)
    batched = max((k["batched_pbs_per_s"] for k in kernels.values()), default=None)
    mb_latency = (mb["single_pbs"]["total_ms"] + mb.get("keyswitch_ms", 0)) if mb else None
    lines = ["", f"| figure | {unit} | modelled ({gpu or 'no model'}) | TFHE-rs (published, H100) |",
             "|---|---|---|---|"]

    def row(label, measured, modelled=None, theirs="-"):
        m = fmt(measured) if isinstance(measured, float) else (measured or "-")
        lines.append(f"| {label} | {m} | {fmt(modelled) if modelled else '-'} | {theirs} |")

    for params in ("classical", "multi-bit"):
        one = value(at(params, "ks_pbs", 1), "median_ms")
        many = at(params, "ks_pbs")
        row(f"{params} KS+PBS alone, ms", one,
            latency if params == "classical" else mb_latency, TFHE_RS_H100[f"ks_pbs {params}"])
        row(f"{params} KS+PBS/s, batch of {many[-1]['batch'] if many else '-'}",
            value(many, "per_second"), batched if params == "classical" else None)
        add = value(at(params, "fheuint64_add", 1), "median_ms")
        row(f"{params} FheUint64 add alone, ms", add,
            mb.get("fhe_uint64_add_ms") if params == "multi-bit" else None,
            TFHE_RS_H100.get(f"add {params}", "-"))
        adds = at(params, "fheuint64_add")
        row(f"{params} FheUint64 adds/s, batch of {adds[-1]['batch'] if adds else '-'}",
            value(adds, "per_second"))
        noise = pick(facts["bootstrap"]["results"], params=params)
        row(f"{params} bootstrap noise, measured / model variance", value(noise, "ratio"))
    rates = kernel_rates(facts["kernels"]["results"]).get("classical")
    for kernel, label, name in KERNELS:
        if rates and kernel in rates["rates"]:
            row(f"classical PBS/s, {label} per bootstrap, batch of {rates['batch']}",
                rates["rates"][kernel], (kernels.get(name) or {}).get("batched_pbs_per_s"))
    guide = facts["guide"]["results"]
    if guide:
        best = max(guide, key=lambda r: float(r.get("per_second", 0)))
        row(f"guide: FheUint64 adds/s ({best['gpus']} GPU, best at {best['streams_per_gpu']} "
            "streams/GPU)", float(best["per_second"]), None, TFHE_RS_H100["guide"])
    rate = facts["failure-rate"]["results"]
    if rate:
        row("failure rate: bootstraps, failures", f"{rate[-1]['bootstraps']}, "
            f"{rate[-1]['failures']}")
    lines.append("\nModelled: scripts/kernel-report.py (static, no GPU ran); its classical "
                 "figures are the bootstrap kernel's alone (the keyswitch is not modelled).")
    return "\n".join(lines) + "\n"


def main(argv):
    if len(argv) == 2 and argv[0] == "ncu-metrics":
        have, missing = ncu_wanted(Path(argv[1]).read_text(errors="replace"))
        if missing:
            print("ncu lacks: " + ", ".join(missing), file=sys.stderr)
        print(",".join(have))
        return 0
    if argv[:1] == ["first-look"] and len(argv) in (2, 3):
        sys.stdout.write(first_look_summary(*argv[1:]))
        return 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

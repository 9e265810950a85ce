#!/usr/bin/env python3
"""The summary of the GPU acceptance run (scripts/gpu-acceptance.sh, packed as
.gpu/run.sh by scripts/gpu-pack.sh): reads the logs the phases left under OUTDIR
and writes the whole Markdown summary. Python 3 standard library only; no GPU.

  gpu_acceptance.py summary OUTDIR [MODEL_JSON]   the summary, on stdout
  gpu_acceptance.py ncu-metrics QUERY_OUTPUT      the wanted counters this ncu has

OUTDIR/logs holds env.txt and notes.txt (lines the runner wrote), and one folder
per phase (tests, examples, sanitize, bench, ncu) of NAME.log, the output of one
command, and NAME.rc, `rc=N seconds=S` (rc 124: timed out); bench/criterion is
criterion's CRITERION_HOME; ncu/NAME.csv is `ncu --csv --page raw` of a report.
Every figure that did not come from a GPU is marked modelled (MODEL_JSON:
scripts/kernel-report.py --json).
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


def tests_section(logdir, libtest=True):
    """A row per command of `logdir`; with `libtest`, its test counts."""
    if not libtest:
        rows = ["| command | result | seconds |", "|---|---|---|"]
        for log in sorted(Path(logdir).glob("*.log")):
            rc, secs = read_status(log)
            rows.append(f"| {log.stem} | {outcome(rc)} | {fmt(secs)} |")
        return "\n".join(rows) + "\n"
    rows = ["| test binary | result | passed | failed | ignored | skipped | seconds |",
            "|---|---|---|---|---|---|---|"]
    notes = []
    for log in sorted(Path(logdir).glob("*.log")):
        rc, secs = read_status(log)
        t = parse_libtest(log.read_text(errors="replace"))
        verdict = outcome(rc)
        if rc == 0 and t["results"] == 0:
            verdict = "FAIL (no libtest result)"
        if rc == 0 and t["skipped"]:
            verdict = "FAIL (tests skipped)"
        rows.append(f"| {log.stem} | {verdict} | {t['passed']} | {t['failed']} | {t['ignored']} "
                    f"| {t['skipped']} | {fmt(secs)} |")
        if t["failures"]:
            notes.append(f"- {log.stem}: failed " + ", ".join(t["failures"]))
    return "\n".join(rows + ([""] + notes if notes else [])) + "\n"


# ---------------------------------------------------------------- compute-sanitizer

def parse_sanitizer(text):
    """Errors compute-sanitizer reported, or None when it printed no summary."""
    counts = [int(m.group(1)) for m in re.finditer(r"ERROR SUMMARY: (\d+) errors?", text)]
    # racecheck's own line (hazards counted as errors and warnings); if a version
    # prints both lines, they count the same errors.
    counts += [int(m.group(1)) for m in re.finditer(
        r"RACECHECK SUMMARY: \d+ hazards? displayed \((\d+) errors?, \d+ warnings?\)", text)]
    return max(counts, default=None)


def sanitize_section(logdir):
    rows = ["| tool | test binary | result | errors | tests passed/failed | seconds |",
            "|---|---|---|---|---|---|"]
    for log in sorted(Path(logdir).glob("*.log")):
        tool, _, binary = log.stem.partition("--")
        rc, secs = read_status(log)
        text = log.read_text(errors="replace")
        errors = parse_sanitizer(text)
        t = parse_libtest(text)
        verdict = outcome(rc)
        if rc == 0 and errors is None:
            verdict = "FAIL (no sanitizer summary)"
        rows.append(f"| {tool} | {binary} | {verdict} | {fmt(errors)} | {t['passed']}/"
                    f"{t['failed']} | {fmt(secs)} |")
    return "\n".join(rows) + "\n"


# ---------------------------------------------------------------- criterion

def criterion_results(home):
    """(full id, median ns, elements per iteration or None) of each benchmark that
    criterion saved under `home` (CRITERION_HOME)."""
    out = []
    for bench in sorted(Path(home).glob("**/new/benchmark.json")):
        estimates = bench.with_name("estimates.json")
        if not estimates.exists():
            continue
        meta = json.loads(bench.read_text())
        median = json.loads(estimates.read_text())["median"]["point_estimate"]
        elements = (meta.get("throughput") or {}).get("Elements")
        out.append((meta["full_id"], median, elements))
    return out


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


def bench_section(home, model_path=None):
    model = load_model(model_path)
    gpu, kernels = model_gpu(model)
    best = max((k["batched_pbs_per_s"] for k in kernels.values()), default=None)
    latency = min((k["latency_ms"] for k in kernels.values()), default=None)
    rows = ["| benchmark | median | per second | modelled (no GPU) |", "|---|---|---|---|"]
    for full_id, ns, elements in criterion_results(home):
        per_s = (elements or 1) / (ns * 1e-9)
        modelled = "-"
        if full_id.startswith("cuda/pbs/throughput/") and best:
            modelled = f"{fmt(best)} PBS/s (batched ceiling)"
        elif full_id == "cuda/pbs/latency" and latency:
            modelled = f"{latency:.2f} ms"
        unit = "elements/s" if elements else "iterations/s"
        rows.append(f"| {full_id} | {ns / 1e6:.3f} ms | {fmt(per_s)} {unit} | {modelled} |")
    if len(rows) == 2:
        rows.append("| (no criterion results) | | | |")
    note = f"\nModelled figures: {gpu} (scripts/kernel-report.py; no GPU ran).\n" if gpu else ""
    return "\n".join(rows) + "\n" + note


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


def summary(outdir, model_path=None):
    """The whole summary from what the phases left under `outdir`/logs."""
    logs = Path(outdir) / "logs"
    text = ["# gpufhe GPU acceptance\n"]
    for name in ("env.txt", "notes.txt"):
        if (logs / name).exists():
            text.append("".join(f"- {l}\n" for l in (logs / name).read_text().splitlines()
                                if l.strip()))
    sections = [
        ("tests", "GPU tests (GPUFHE_REQUIRE_GPU=1)", lambda d: tests_section(d)),
        ("examples", "Examples", lambda d: tests_section(d, libtest=False)),
        ("sanitize", "compute-sanitizer", sanitize_section),
        ("bench", "Benchmarks (criterion medians)",
         lambda d: bench_section(d / "criterion", model_path) + "\n"
         + tests_section(d, libtest=False)),
    ]
    for folder, title, section in sections:
        if (logs / folder).is_dir():
            text.append(f"\n## {title}\n\n" + section(logs / folder))
    if (logs / "ncu").is_dir():
        text.append("\n## Nsight Compute: the bootstrap kernel, measured and modelled\n")
        for csv_path in sorted((logs / "ncu").glob("*.csv")):
            text.append(f"\n### {csv_path.stem}\n" + ncu_section(csv_path, model_path))
        text.append("\n" + tests_section(logs / "ncu", libtest=False))
    return "".join(text)


def main(argv):
    if len(argv) == 2 and argv[0] == "ncu-metrics":
        have, missing = ncu_wanted(Path(argv[1]).read_text(errors="replace"))
        if missing:
            print("ncu lacks: " + ", ".join(missing), file=sys.stderr)
        print(",".join(have))
        return 0
    if argv[:1] != ["summary"] or len(argv) not in (2, 3):
        print(__doc__, file=sys.stderr)
        return 2
    sys.stdout.write(summary(*argv[1:]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

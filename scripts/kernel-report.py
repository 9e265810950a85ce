#!/usr/bin/env python3
"""Static report of the CUDA kernels: resources, the bootstrap's CMux loop in SASS,
and a modelled throughput and latency on an H100 SXM and an A100 SXM.

No GPU is used. Every GPU figure printed is *modelled* from the compiled code and
the assumptions in GPUS / MODEL below (see docs/kernel-report.md). Run it through
scripts/kernel-report.sh, which finds the compiler and nvdisasm. Exits 1 when the
bootstrap kernels of the default parameters spill (ptxas spill bytes, or local
loads/stores in the CMux loop), or when a kernel the host may launch uses local
memory (see selectable_kernels), 2 when the report itself cannot be made.
"""

import argparse
import atexit
import concurrent.futures
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# The default parameters (src/shortint/parameters/block.rs, DEFAULT_PARAMETERS); the
# report checks that the source still says so.
DEFAULTS = {"n": 918, "k": 1, "N": 2048, "level": 1}
DEFAULT_SOURCE = ("src/shortint/parameters/block.rs", [
    "lwe_dimension: LweDimension(918)", "glwe_dimension: GlweDimension(1)",
    "polynomial_size: PolynomialSize(2048)", "pbs_level: DecompositionLevelCount(1)"])

# The host's launch shapes of the bootstrap and its kernel choice
# (src/backend/cuda/algorithms/bootstrap_kernel_choice.rs, entities/bootstrap_key.rs),
# mirrored below in launch_shapes() and selectable_kernels(); the report stops if these
# lines change, so the mirror cannot drift silently.
LAUNCH_SOURCE = {
    "src/backend/cuda/algorithms/bootstrap_kernel_choice.rs": [
        "let staging = if level > 1 { n * 8 } else { 0 };",
        "let mask = (lwe_dimension + 1) * 4;",
        "let single_shared = glwe_size * (2 * level * rows + staging) + mask;",
        "let cluster_shared = 2 * level * rows + staging + mask;",
        "threads as usize * glwe_size",
        "fits: (per_thread == 1 || per_thread == glwe_size)",
        "let usable = |c: Candidate| c.fits && !c.local_memory;",
        "&& glwe_size <= 8",
        "block_dim: (threads, 1, 1),",
    ],
    "src/backend/cuda/entities/bootstrap_key.rs": ["(m + m / 8) * 16"],
    # The twiddle index formula that twiddle_lines_per_fft mirrors.
    # The external product's trip count (rows - 1) that the SASS weighting uses.
    "cuda/programmable_bootstrap.cu": [
        "for (uint32_t q = 0; q + 1 < rows; ++q) {",
        "#define BOOTSTRAP_KERNELS(N, R, THREADS, G)",
        "for (uint32_t line = ct % share + share * t; line < column_lines; line += share * T)",
    ],
    # The multi-bit accumulation launches as the classical bootstrap (with n), the key
    # bundles T threads and one padded polynomial, a grid of at most 4 blocks per SM,
    # each item BUNDLE_CTS ciphertexts x BUNDLE_POLYS polynomials of one group.
    "src/backend/cuda/algorithms/lwe_multi_bit_programmable_bootstrapping.rs": [
        "let geometry = flavour.geometry(&device, bsk, n, count, request)?;",
        ".allow_shared_memory(&device, padded_polynomial_bytes(polynomial_size))?;",
        "let blocks = items.min(device.multiprocessor_count() * 4).max(1);",
        "const BUNDLE_CTS: usize = 4;",
        "const BUNDLE_POLYS: usize = 4;",
    ],
    "cuda/multi_bit_bootstrap.cuh": [
        "constexpr uint32_t BUNDLE_CTS = 4;",
        "constexpr uint32_t BUNDLE_POLYS = 4;",
        "for (uint32_t s = 1; s <= per_group; ++s) {",
        "const uint32_t ct0 = (uint32_t)(item % ct_chunks) * BUNDLE_CTS;",
    ],
    "cuda/negacyclic_fft.cuh": [
        "return __ldg(&twiddles[M - 2 * span + i]);",
        "const double2 w = twiddle(twiddles, span, b + (j & (half - 1)) * D);",
        "const int b = (t + u * T) % D;",
    ],
}

# Per-SM limits and rates of the modelled GPUs (public NVIDIA specifications; the
# L2 figure is a commonly measured read bandwidth, not a specification).
GPUS = {
    "H100 SXM5 (sm_90)": dict(arch=90, sms=132, clock_ghz=1.98, fp64_lanes=64, issue=4,
                              l1_bytes_clk=128, l2_tbs=7.0, hbm_tbs=3.35, l2_mib=50,
                              regs=65536, max_warps=64, max_blocks=32,
                              smem_sm_kib=228, smem_block_kib=227, l2_latency=270),
    "A100 SXM4 80GB (sm_80)": dict(arch=80, sms=108, clock_ghz=1.41, fp64_lanes=32, issue=4,
                                   l1_bytes_clk=128, l2_tbs=4.8, hbm_tbs=2.04, l2_mib=40,
                                   regs=65536, max_warps=64, max_blocks=32,
                                   smem_sm_kib=164, smem_block_kib=163, l2_latency=200),
}
MODEL = {
    "reserved_smem_per_block": 1024,  # bytes the driver keeps per block (sm_80+)
    "barrier_cycles": 20,             # one block barrier once all warps arrived
    "cluster_barrier_cycles": 600,    # arrive + wait across SMs with a GPU-scope fence
    "exposed_l2_trips_per_cmux": 1,   # key loads wait on L2 once per CMux (prefetched)
}

# The multi-bit default shape of issue #12 (n = 920, g = 4, k = 1, N = 2048, PBS
# 2^22 x 1): modelled for the multi-bit kernels. An FheUint64 addition on 2+2-bit
# blocks: 32 blocks through about 6 sequential bootstrap layers (the carry
# propagation), each a batch of at most 32 bootstraps and one keyswitch of the batch.
MB_DEFAULTS = {"n": 920, "g": 4, "k": 1, "N": 2048, "level": 1, "base_log": 22}
MB_SOURCE = ("src/shortint/parameters/block.rs", [
    "lwe_dimension: LweDimension(920)", "pbs_base_log: DecompositionBaseLog(22)",
    "ks_level: DecompositionLevelCount(5)",
    "pbs_kind: PbsKind::MultiBit { grouping_factor: 4 }"])
FHE_UINT64_ADD = {"layers": 6, "blocks": 32, "ks_level": 5}
MB_MODEL = {
    "launch_cycles": 8000,            # one kernel launch after another on a stream (~4 us)
    "exposed_l2_trips_per_pattern": 1,  # the bundle kernel's key loads, not prefetched
}

FP64 = ("DFMA", "DADD", "DMUL")


def fail(msg, code=2):
    print(f"kernel-report: {msg}", file=sys.stderr)
    sys.exit(code)


def check_source(path, lines):
    text = (ROOT / path).read_text()
    for line in lines:
        if line not in text:
            fail(f"{path} no longer contains `{line}`: update the mirror in "
                 "scripts/kernel-report.py (and docs/kernel-report.md)")


# ---------------------------------------------------------------- compile + ptxas

def compile_cubin(tools, src, arch, outdir):
    """A cubin of `src` for sm_`arch` and ptxas's resource report: nvcc, or NVRTC's
    PTX assembled by ptxas (the CUDA 12 wheels' way, scripts/nvrtc-compile.py)."""
    cubin = outdir / f"{src.stem}.sm_{arch}.cubin"
    if tools.nvcc:
        cmd = [tools.nvcc, "-cubin", "-O3", "-std=c++17", f"-arch=sm_{arch}", "-Xptxas", "-v",
               "-o", str(cubin), str(src)]
    else:
        ptx = outdir / f"{src.stem}.compute_{arch}.ptx"
        res = subprocess.run([sys.executable, str(ROOT / "scripts/nvrtc-compile.py"), "--nvrtc",
                              tools.nvrtc, "--arch", f"compute_{arch}", "-o", str(ptx), str(src)]
                             + [f"-I{i}" for i in tools.include], capture_output=True, text=True)
        if res.returncode != 0:
            fail(f"NVRTC failed on {src.name} for compute_{arch}:\n{res.stderr}")
        ptx.write_bytes(ptx.read_bytes().rstrip(b"\0"))
        cmd = [tools.ptxas, f"-arch=sm_{arch}", "-O3", "-v", "-o", str(cubin), str(ptx)]
    res = subprocess.run(cmd, capture_output=True, text=True)
    if res.returncode != 0:
        fail(f"compiling {src.name} for sm_{arch} failed:\n{res.stderr}")
    return cubin, parse_ptxas(res.stdout + res.stderr)


def compiler_version(tools):
    def last_line(cmd):
        out = subprocess.run(cmd, capture_output=True, text=True).stdout.strip()
        return out.splitlines()[-1] if out else "?"
    if tools.nvcc:
        return "nvcc " + last_line([tools.nvcc, "--version"])
    nvrtc = last_line([sys.executable, str(ROOT / "scripts/nvrtc-compile.py"), "--nvrtc",
                       tools.nvrtc, "--version"])
    return f"NVRTC {nvrtc} + ptxas " + last_line([tools.ptxas, "--version"])


def parse_ptxas(text):
    """Entry functions' resources from `ptxas -v` output."""
    kernels, current, entry = {}, None, False
    for line in text.splitlines():
        m = re.search(r"Compiling entry function '(\w+)'", line)
        if m:
            current, entry = m.group(1), True
            kernels[current] = dict(regs=0, stack=0, spill_st=0, spill_ld=0, smem=0)
            continue
        m = re.search(r"Function properties for (\w+)", line)
        if m:
            entry = m.group(1) == current
            continue
        if not entry or current is None:
            continue
        k = kernels[current]
        m = re.search(r"(\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads",
                      line)
        if m:
            k["stack"], k["spill_st"], k["spill_ld"] = map(int, m.groups())
        m = re.search(r"Used (\d+) registers", line)
        if m:
            k["regs"] = int(m.group(1))
            s = re.search(r"(\d+) bytes smem", line)
            k["smem"] = int(s.group(1)) if s else 0
    return kernels


def bootstrap_instances():
    """N -> (R, THREADS, G) of each BOOTSTRAP_KERNELS(N, R, THREADS, G) instantiation in
    cuda/programmable_bootstrap.cu: values per thread, the single-block kernels' launch
    bound and the polynomials each of their threads holds."""
    text = (ROOT / "cuda/programmable_bootstrap.cu").read_text()
    found = re.findall(r"^BOOTSTRAP_KERNELS\((\d+),\s*(\d+),\s*(\d+),\s*(\d+)\)", text, re.M)
    if not found:
        fail("no BOOTSTRAP_KERNELS(N, R, THREADS, G) instantiation found")
    return {int(n): (int(r), int(t), int(g)) for n, r, t, g in found}


def bootstrap_sizes():
    """N -> R of each instantiation."""
    return {n: r for n, (r, _, _) in bootstrap_instances().items()}


def launch_shapes(p, values_per_thread, per_thread=1):
    """Block size and dynamic shared memory the host requests, per kernel name
    (`per_thread`: the polynomials each single-block thread holds)."""
    N, k, level, n = p["N"], p["k"], p["level"], p["n"]
    T = N // (2 * values_per_thread)
    m = N // 2
    rows = (m + m // 8) * 16
    staging = N * 8 if level > 1 else 0
    mask = (n + 1) * 4
    return {
        f"programmable_bootstrap_{N}_u64":
            dict(threads=T if per_thread > 1 else T * (k + 1),
                 dyn=(k + 1) * (2 * level * rows + staging) + mask, groups=1, polys=k + 1),
        f"programmable_bootstrap_cluster_{N}_u64":
            dict(threads=T, dyn=2 * level * rows + staging + mask, groups=k + 1, polys=1),
        f"bsk_to_fourier_{N}_u64": dict(threads=T, dyn=rows, groups=1, polys=1),
    }


def multi_bit_launch_shapes(pm, values_per_thread, per_thread=1):
    """The multi-bit kernels' launches at the multi-bit shape `pm`: the accumulation
    as the classical bootstrap of dimension n, the key bundles as the conversion."""
    base = launch_shapes(pm, values_per_thread, per_thread)
    N = pm["N"]
    return {
        f"multi_bit_bootstrap_{N}_u64": base[f"programmable_bootstrap_{N}_u64"],
        f"multi_bit_bootstrap_cluster_{N}_u64": base[f"programmable_bootstrap_cluster_{N}_u64"],
        f"multi_bit_key_bundle_{N}_u64": base[f"bsk_to_fourier_{N}_u64"],
    }


def occupancy(gpu, regs, smem_total, threads):
    """Blocks per SM from warps, registers (256-register units per warp, four
    schedulers of a quarter of the file each) and shared memory."""
    warps = -(-threads // 32)
    per_warp = -(-max(regs, 1) * 32 // 256) * 256
    warps_by_regs = (gpu["regs"] // 4 // per_warp) * 4
    limits = {
        "warps": gpu["max_warps"] // warps,
        "registers": warps_by_regs // warps,
        "blocks": gpu["max_blocks"],
    }
    per_block = smem_total + MODEL["reserved_smem_per_block"]
    if smem_total > gpu["smem_block_kib"] * 1024:
        limits["shared memory"] = 0
    else:
        limits["shared memory"] = gpu["smem_sm_kib"] * 1024 // per_block
    blocks = min(limits.values())
    binding = min(limits, key=limits.get)
    return blocks, blocks * warps, binding


# ---------------------------------------------------------------- SASS

def sass(nvdisasm, cubin, function):
    """(address, instruction) of `function` in `cubin`, branch targets as addresses.
    nvdisasm, not cuobjdump: cuobjdump 13.x finds no device code in CUDA 12 sm_90
    cubins, which nvdisasm 13.x reads."""
    res = subprocess.run([nvdisasm, "-c", str(cubin)], capture_output=True, text=True)
    if res.returncode != 0:
        fail(f"nvdisasm failed on {cubin.name}: {res.stderr}")
    ins, labels, inside, pending = [], {}, False, []
    for line in res.stdout.splitlines():
        if line.startswith("//----") and ".text." in line:
            inside = line.split(".text.", 1)[1].split()[0] == function
            continue
        if not inside:
            continue
        m = re.match(r"(\.L_x_\d+):", line)
        if m:
            pending.append(m.group(1))
            continue
        m = re.match(r"\s*/\*([0-9a-f]{4,})\*/\s+(.*?)\s*;", line)
        if m:
            addr = int(m.group(1), 16)
            for label in pending:
                labels[label] = addr
            pending = []
            ins.append((addr, m.group(2).strip()))
    if not ins:
        fail(f"no SASS for {function} in {cubin.name}")
    for label in pending:  # a label after the last instruction
        labels[label] = ins[-1][0] + 16
    resolve = lambda m: hex(labels[m.group(1)])  # noqa: E731
    return [(a, re.sub(r"`\((\.L_x_\d+)\)", resolve, t)) for a, t in ins]


def opcode(text):
    t = re.sub(r"^@!?U?P\w+\s+", "", text)
    return t.split()[0] if t else ""


def loops(ins):
    """Backward branches as (start, end) address ranges. A jump back over an
    unconditional EXIT comes from code the compiler outlined after the function's
    end (divergent shuffles, for instance), not from a loop, and is left out."""
    out = []
    for addr, text in ins:
        m = re.match(r"(?:@!?U?P\w+\s+)?BRA(?:\.\S+)?\s+(?:\S+,\s*)?`?\(?0x([0-9a-f]+)", text)
        if not m or int(m.group(1), 16) > addr:
            continue
        start = int(m.group(1), 16)
        if any(start <= a <= addr and t == "EXIT" for a, t in ins):
            continue
        out.append((start, addr))
    return out


def classify(op):
    base = op.split(".")[0]
    parts = op.split(".")
    width = next((int(x) for x in parts[1:] if x in ("8", "16", "32", "64", "128")), 32)
    if base in FP64:
        return base
    if base.startswith("D") and base in ("DSETP", "DMNMX"):
        return "FP64 other"
    if base in ("LDS", "STS", "LDG", "STG", "LDL", "STL", "LD", "ST"):
        label = {"LD": "LD generic", "ST": "ST generic"}.get(base, base)
        return f"{label}.{width}"
    if base == "BAR":
        return "BAR"
    if base == "SHFL":
        return "SHFL"
    if base.startswith("UCGABAR") or base.startswith("CGABAR"):
        return "cluster barrier"
    if base in ("MEMBAR", "FENCE"):
        return "MEMBAR/FENCE"
    if base in ("CCTL", "CCTLL"):
        return "CCTL (prefetch/invalidate)"
    return "other"


def cmux_loop(ins, trips):
    """Per-thread instruction counts of one CMux iteration.

    The CMux loop is the conditional backward branch whose range holds the most FP64
    instructions (the smallest such range on a tie). Loops nested inside it are
    recognised by what they hold and weighted by their trip counts: a loop with a
    CCTL and no FP64 is the L2 prefetch over the key column's lines; one with FP64 and
    no barrier is the external product over the other rows; one with FP64 and a barrier is
    the loop over decomposition levels. Anything else stops the report."""
    all_loops = loops(ins)

    def count(lo, hi, pred):
        return sum(1 for a, t in ins if lo <= a <= hi and pred(opcode(t)))

    is_fp64 = lambda o: o.split(".")[0] in FP64  # noqa: E731
    best = max(all_loops, key=lambda r: (count(*r, is_fp64), -(r[1] - r[0])), default=None)
    if best is None or count(*best, is_fp64) == 0:
        fail("no loop with FP64 instructions: cannot find the CMux loop")
    inner = [r for r in all_loops if best[0] <= r[0] and r[1] <= best[1] and r != best]
    weights = []
    for lo, hi in inner:
        has_fp = count(lo, hi, is_fp64) > 0
        has_bar = count(lo, hi, lambda o: o.startswith("BAR") or "CGABAR" in o) > 0
        has_cctl = count(lo, hi, lambda o: o.startswith("CCTL")) > 0
        if has_cctl and not has_fp:
            kind = "prefetch lines"
        elif has_fp and not has_bar:
            kind = "external product rows"
        elif has_fp and has_bar:
            kind = "decomposition levels"
        else:
            fail(f"unrecognised loop {lo:#x}..{hi:#x} inside the CMux loop")
        weights.append((lo, hi, kind, trips[kind]))
    counts = Counter()
    for addr, text in ins:
        if not best[0] <= addr <= best[1]:
            continue
        w = 1
        for lo, hi, _, trip in weights:
            if lo <= addr <= hi:
                w *= trip
        cls = classify(opcode(text))
        counts[cls] += w
        counts["all"] += w
    return dict(range=best, inner=weights, counts=counts)


# ---------------------------------------------------------------- model

def twiddle_lines_per_fft(M, R):
    """L1 lines (128 B) one warp touches for the twiddle loads of one FFT, from the
    index formulas of forward_pass and twiddle() in cuda/negacyclic_fft.cuh (the table
    by stage: span s at offset M - 2 s; the inverse reads the same twiddles). Loads
    whose address is the same for every lane count once."""
    T = M // R
    log_r = R.bit_length() - 1
    lines, loads = 0, 0
    G = M
    while G > 1:
        L = min(log_r, G.bit_length() - 1)
        P, D = 1 << L, G // (1 << L)
        seen = set()
        for u in range(R // P):
            for st in range(L):
                half = P >> (st + 1)
                span = half * D
                for j in range(P):
                    if j & half:
                        continue
                    idx = tuple(M - 2 * span + (t + u * T) % D + (j & (half - 1)) * D
                                for t in range(32))
                    if idx in seen:
                        continue
                    seen.add(idx)
                    loads += 1
                    lines += len({i * 16 // 128 for i in idx})
        G >>= L
    return lines, loads


def data_path_wavefronts(counts, twiddle_lines, twiddle_loads):
    """128-byte L1/shared wavefronts per warp per CMux: shared and generic accesses
    conflict-free (the padding's purpose), global loads coalesced except the twiddles,
    which cost the lines their index formula touches, and one per warp shuffle."""
    wf = 0.0
    for cls, c in counts.items():
        if "." not in cls:
            continue
        base, width = cls.rsplit(".", 1)
        if base in ("LDS", "STS", "LD generic", "ST generic", "LDG", "STG", "LDL", "STL"):
            wf += c * max(1, 32 * int(width) // 8 // 128)
    # A warp shuffle moves 32 x 4 bytes through the same crossbar: one wavefront.
    wf += counts.get("SHFL", 0)
    # Replace the twiddles' coalesced estimate (128-bit: 4 wavefronts) by their lines.
    wf += 2 * (twiddle_lines - 4 * twiddle_loads)
    return wf


def model(gpu, counts, shape, p, occ_blocks, twiddles):
    """Ceilings in PBS/s per resource and a single-PBS latency, all modelled."""
    f = gpu["clock_ghz"] * 1e9
    n = p["n"]
    warps = shape["threads"] * shape["groups"] // 32  # warps per ciphertext
    fp64 = sum(counts[c] for c in FP64) * warps
    issue = counts["all"] * warps
    wavefronts = data_path_wavefronts(counts, *twiddles) * warps
    cyc = {
        "FP64 pipe": fp64 / (gpu["fp64_lanes"] / 32),
        "issue": issue / gpu["issue"],
        "L1/shared data path": wavefronts * 128 / gpu["l1_bytes_clk"],
    }
    out = {}
    for name, c in cyc.items():
        out[name] = gpu["sms"] * f / (c * n)
    key_bytes = (p["k"] + 1) ** 2 * p["level"] * (p["N"] // 2) * 16  # one GGSW
    out["L2 (key per ciphertext)"] = gpu["l2_tbs"] * 1e12 / (key_bytes * n)
    # The whole key (n GGSWs) exceeds L2 at the default parameters, but the
    # ciphertexts in flight (a wave: identical blocks started together, which split
    # the L2 prefetch of the next GGSW) walk it in step, so each wave streams it from
    # HBM once. Were they to drift apart by more GGSWs than L2 holds, every
    # ciphertext would stream it: printed apart as the worst case.
    in_flight = occ_blocks * gpu["sms"] // shape["groups"]
    out["HBM (one key stream per wave)"] = in_flight * gpu["hbm_tbs"] * 1e12 / (key_bytes * n)
    # One ciphertext alone: its groups' SMs, their barriers and one L2 round trip.
    bars = counts["BAR"] * MODEL["barrier_cycles"]
    bars += counts["cluster barrier"] / 2 * MODEL["cluster_barrier_cycles"]
    alone = max(fp64 / (gpu["fp64_lanes"] / 32), issue / min(gpu["issue"], warps),
                wavefronts * 128 / gpu["l1_bytes_clk"]) / shape["groups"]
    per_cmux = alone + bars + MODEL["exposed_l2_trips_per_cmux"] * gpu["l2_latency"]
    latency_ms = n * per_cmux / f * 1e3
    # What one PBS costs in the units a profiler counts (warp instructions, 128-byte
    # wavefronts, bytes), the n CMuxes only: what scripts/gpu_acceptance.py compares
    # with Nsight Compute's counters.
    shared = sum(c * max(1, 32 * int(cls.rsplit(".", 1)[1]) // 8 // 128)
                 for cls, c in counts.items()
                 if cls.split(".")[0] in ("LDS", "STS") or cls.startswith(("LD generic.",
                                                                           "ST generic.")))
    per_pbs = {
        "warp instructions": issue * n,
        "FP64 warp instructions": fp64 * n,
        "L1/shared wavefronts": wavefronts * n,
        "shared wavefronts": shared * warps * n,
        "L2 bytes (key)": key_bytes * n,
        "DRAM bytes (key, one stream per wave)": key_bytes * n / in_flight,
    }
    return out, latency_ms, in_flight, per_pbs


# ---------------------------------------------------------------- kernels the host may pick

# The shapes of the parameter sets the crate ships for the GPU bootstraps: k = 1, one
# or two decomposition levels, n up to 1024 (the switched mask's shared memory).
SHIPPED_SHAPES = [dict(k=1, level=1, n=1024), dict(k=1, level=2, n=1024)]
# Launched whatever the batch: the keyswitch (each width), its reduction, the linear
# combinations and the LWE arithmetic.
ALWAYS = re.compile(r"^(keyswitch_\d+_u64|keyswitch_reduce_u64|linear_combination_lwe_u64|"
                    r"(add|sub|neg)_lwe_assign_u64|"
                    # The 128-bit bootstrap of noise squashing and its key conversion.
                    r"programmable_bootstrap_128_\d+|bsk128_to_fourier_\d+)$")


def local_memory(r):
    """Bytes of local memory (stack frame, spills) ptxas reported for a kernel."""
    return max(r["stack"], r["spill_st"], r["spill_ld"])


def selectable_kernels(results, arch, instances):
    """What the host may launch on sm_`arch`, mirroring choose_bootstrap_kernel
    (bootstrap_kernel_choice.rs): per size and shipped shape, the bootstrap kernels
    (classical, multi-bit) that fit the GPU (threads, shared memory, clusters from
    sm_90) and have no local memory, which `Auto` alone takes, with the ones it
    refuses for local memory; then the kernels launched with no choice (the key
    conversion and key bundles of the sizes that run, the keyswitch, the linear
    algebra). Returns (rows, launched): rows of (N, shape, flavour, usable, refused)."""
    gpu = next(g for g in GPUS.values() if g["arch"] == arch)
    limit = gpu["smem_block_kib"] * 1024
    kernels = {}
    for (a, _), (_, found) in results.items():
        if a == arch:
            kernels.update(found)
    rows, launched = [], {name for name in kernels if ALWAYS.match(name)}
    for N, (R, threads, G) in sorted(instances.items()):
        for shape in SHIPPED_SHAPES:
            p = dict(N=N, **shape)
            k = shape["k"]
            for flavour, names in (("classical", launch_shapes(p, R, G)),
                                   ("multi-bit", multi_bit_launch_shapes(p, R, G))):
                prefix = "programmable_bootstrap" if flavour == "classical" else "multi_bit_bootstrap"
                single, cluster = f"{prefix}_{N}_u64", f"{prefix}_cluster_{N}_u64"
                fits = {
                    single: (G in (1, k + 1) and names[single]["threads"] <= threads
                             and names[single]["dyn"] + kernels[single]["smem"] <= limit),
                    cluster: (arch >= 90 and k + 1 <= 8
                              and names[cluster]["dyn"] + kernels[cluster]["smem"] <= limit),
                }
                usable = [n for n, ok in fits.items() if ok and not local_memory(kernels[n])]
                refused = [n for n, ok in fits.items() if ok and local_memory(kernels[n])]
                rows.append((N, shape, flavour, usable, refused))
                if usable:
                    launched.update(usable)
                    launched.add(f"bsk_to_fourier_{N}_u64")
                    if flavour == "multi-bit":
                        launched.add(f"multi_bit_key_bundle_{N}_u64")
    return rows, {n: local_memory(kernels[n]) for n in sorted(launched)}


def selectable_report(results, archs, instances):
    """Prints what the host may launch per architecture; returns the failures: a
    launched kernel with local memory, or default parameters with no kernel."""
    failures = []
    print("\n--- kernels the host may launch (Auto takes no bootstrap kernel with local "
          "memory; shipped shapes k = 1, 1 or 2 levels) ---")
    for arch in archs:
        rows, launched = selectable_kernels(results, arch, instances)
        for N, shape, flavour, usable, refused in rows:
            why = "".join(f"; refused (local memory): {r}" for r in refused)
            print(f"  sm_{arch} N = {N}, {shape['level']} level(s), {flavour}: "
                  f"{', '.join(usable) or 'none: the GPU refuses these parameters'}{why}")
            default = (N == DEFAULTS["N"] and shape["level"] == DEFAULTS["level"])
            if default and not usable:
                failures.append(f"sm_{arch}: no {flavour} kernel for the default parameters")
        for name, local in launched.items():
            if local:
                failures.append(f"sm_{arch}: {name} (launched) has {local} B of local memory")
    return failures


# ---------------------------------------------------------------- report

def multi_bit_report(args, results, archs, shapes, sizes, twiddles, local_in_loop):
    """The multi-bit section (scripts/kernel_report_multi_bit.py), given this module."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import kernel_report_multi_bit
    return kernel_report_multi_bit.report(sys.modules[__name__], args, results, archs, shapes,
                                          sizes, twiddles, local_in_loop)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--nvcc", help="nvcc; else --nvrtc, --ptxas and --include")
    ap.add_argument("--nvrtc", help="libnvrtc.so (CUDA 12 wheels)")
    ap.add_argument("--ptxas")
    ap.add_argument("--include", action="append", default=[])
    ap.add_argument("--nvdisasm", required=True)
    ap.add_argument("--archs", default="80,90")
    ap.add_argument("--json", metavar="PATH",
                    help="also write the modelled figures there, machine-readable")
    args = ap.parse_args()
    if not args.nvcc and not (args.nvrtc and args.ptxas):
        ap.error("give --nvcc, or --nvrtc and --ptxas")
    check_source(*DEFAULT_SOURCE)
    check_source(*MB_SOURCE)
    for path, lines in LAUNCH_SOURCE.items():
        check_source(path, lines)
    p = DEFAULTS
    instances = bootstrap_instances()
    sizes = bootstrap_sizes()
    if p["N"] not in sizes:
        fail(f"no bootstrap kernels for N = {p['N']}")
    shapes = launch_shapes(p, sizes[p["N"]])
    shapes.update(multi_bit_launch_shapes(MB_DEFAULTS, sizes[MB_DEFAULTS["N"]]))
    archs = [int(a) for a in args.archs.split(",")]
    sources = sorted((ROOT / "cuda").glob("*.cu"))

    tmp = Path(tempfile.mkdtemp(prefix="kernel-report-"))
    atexit.register(shutil.rmtree, tmp, True)  # the cubins, once the report is out
    jobs = {}
    with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        for arch in archs:
            for src in sources:
                jobs[(arch, src.name)] = pool.submit(compile_cubin, args, src, arch, tmp)
    results = {key: job.result() for key, job in jobs.items()}

    print("=== gpufhe kernel report (static; every GPU figure is MODELLED, no GPU ran) ===")
    print(f"compiler: {compiler_version(args)}")
    print(f"default parameters: n = {p['n']}, k = {p['k']}, N = {p['N']}, "
          f"level = {p['level']} (CMuxes per PBS = n = {p['n']})")
    spills = []
    for arch in archs:
        gpu = next(g for g in GPUS.values() if g["arch"] == arch)
        print(f"\n--- resources, sm_{arch} (ptxas -v; occupancy at the default parameters' launch) ---")
        print(f"{'kernel':42} {'regs':>4} {'spill st/ld B':>13} {'smem static':>11} "
              f"{'dyn (launch)':>12} {'threads':>7} {'occupancy':>24}")
        for (a, name), (_, kernels) in sorted(results.items()):
            if a != arch:
                continue
            for fn, r in sorted(kernels.items()):
                shape = shapes.get(fn)
                if "cluster" in fn and arch < 90:
                    shape = None  # an empty body, never launched below sm_90
                occ, dyn, thr = "(launch not modelled)", "-", "-"
                if shape:
                    blocks, warps, why = occupancy(gpu, r["regs"], r["smem"] + shape["dyn"],
                                                   shape["threads"])
                    occ = f"{blocks} blk, {warps}/{gpu['max_warps']} warps ({why})"
                    dyn, thr = str(shape["dyn"]), str(shape["threads"])
                print(f"{fn:42} {r['regs']:>4} {r['spill_st']:>6}/{r['spill_ld']:<6} "
                      f"{r['smem']:>11} {dyn:>12} {thr:>7} {occ:>24}")
                spilled = r["spill_st"] or r["spill_ld"]
                if fn.startswith(("programmable_bootstrap", "multi_bit_")) and spilled:
                    spills.append((arch, fn, r, fn in shapes))

    M, R = p["N"] // 2, sizes[p["N"]]
    rows = (p["k"] + 1) * p["level"]
    # The external product's loop reads the rows other than the group's own last one,
    # which it keeps in registers.
    # The prefetch loop's trips per thread are those of a ciphertext prefetching alone
    # (share 1: rows x lines per polynomial / T); a wave splits them (fewer).
    lines = rows * (M * 16 // 128)
    trips = {"prefetch lines": -(-lines // (M // R)), "external product rows": rows - 1,
             "decomposition levels": p["level"]}
    twiddles = twiddle_lines_per_fft(M, R)
    local_in_loop = []
    print(f"\n--- CMux loop SASS, per thread per CMux (nvdisasm; inner loops weighted: "
          f"rows = {rows}, levels = {p['level']}) ---")
    print(f"twiddle loads per FFT from the source's index formula: {twiddles[1]} distinct per "
          f"warp, {twiddles[0]} L1 lines per warp (vs {4 * twiddles[1]} if coalesced)")
    analyses = {}
    for arch in archs:
        cubin = results[(arch, "programmable_bootstrap.cu")][0]
        for fn in (f"programmable_bootstrap_{p['N']}_u64",
                   f"programmable_bootstrap_cluster_{p['N']}_u64"):
            if "cluster" in fn and arch < 90:
                continue
            loop = cmux_loop(sass(args.nvdisasm, cubin, fn), trips)
            analyses[(arch, fn)] = loop
            c = loop["counts"]
            lo, hi = loop["range"]
            inner = ", ".join(f"{k} x{t}" for _, _, k, t in loop["inner"]) or "none"
            print(f"\n{fn}, sm_{arch}: loop {lo:#x}..{hi:#x}; inner loops: {inner}")
            fp = " ".join(f"{x} {c[x]}" for x in FP64)
            print(f"  FP64: {fp} (total {sum(c[x] for x in FP64)}); FP64 other {c['FP64 other']}")
            mem = sorted(k for k in c if "." in k)
            print("  memory: " + ", ".join(f"{k} {c[k]}" for k in mem))
            print(f"  barriers: BAR {c['BAR']}, cluster {c['cluster barrier']}, "
                  f"MEMBAR/FENCE {c['MEMBAR/FENCE']}, CCTL {c['CCTL (prefetch/invalidate)']}")
            print(f"  shuffles: SHFL {c['SHFL']}; other {c['other']}; all instructions {c['all']}")
            local = sum(v for k, v in c.items() if k.startswith(("LDL", "STL")))
            if local:
                local_in_loop.append((arch, fn, local))

    print("\n--- modelled ceilings (PBS/s) and single-PBS latency; assumptions below ---")
    modelled = {}
    for gname, gpu in GPUS.items():
        if gpu["arch"] not in archs:
            continue
        for fn in (f"programmable_bootstrap_{p['N']}_u64",
                   f"programmable_bootstrap_cluster_{p['N']}_u64"):
            if (gpu["arch"], fn) not in analyses:
                continue
            key_mib = (p["k"] + 1) ** 2 * p["level"] * p["N"] // 2 * 16 * p["n"] / 2**20
            regs = results[(gpu["arch"], "programmable_bootstrap.cu")][1][fn]
            shape = shapes[fn]
            blocks, warps, _ = occupancy(gpu, regs["regs"], regs["smem"] + shape["dyn"],
                                         shape["threads"])
            ceilings, latency, in_flight, per_pbs = model(
                gpu, analyses[(gpu["arch"], fn)]["counts"], shape, p, blocks, twiddles)
            bound = min(ceilings, key=ceilings.get)
            modelled.setdefault(gname, {})[fn] = dict(
                arch=gpu["arch"], threads=shape["threads"], groups=shape["groups"],
                blocks_per_sm=blocks, warps_per_sm=warps, max_warps=gpu["max_warps"],
                in_flight=in_flight, ceilings_pbs_per_s=ceilings, bound=bound,
                batched_pbs_per_s=ceilings[bound], latency_ms=latency, per_pbs=per_pbs)
            print(f"\n{gname}, {fn}: {blocks} block(s)/SM of {shape['threads']} threads, "
                  f"{in_flight} ciphertexts in flight")
            for name, v in ceilings.items():
                print(f"  {name:28} {v:>10,.0f} PBS/s (modelled)")
            worst = ceilings["HBM (one key stream per wave)"] / in_flight
            window = gpu["l2_mib"] * 2**20 // ((p["k"] + 1) ** 2 * p["level"] * p["N"] * 8)
            print(f"  (key {key_mib:.1f} MiB vs L2 {gpu['l2_mib']} MiB: L2 holds {window} GGSWs; "
                  f"if the {in_flight} ciphertexts of a wave drifted further apart than that, "
                  f"each would stream the key: {worst:,.0f})")
            print(f"  => batched: {ceilings[bound]:,.0f} PBS/s (modelled, bound: {bound}); "
                  f"single PBS: {latency:.2f} ms (modelled)")
    multi_bit = multi_bit_report(args, results, archs, shapes, sizes, twiddles, local_in_loop)
    launch_failures = selectable_report(results, archs, instances)
    print("\nassumptions (modelled; see docs/kernel-report.md):")
    for gname, gpu in GPUS.items():
        print(f"  {gname}: {gpu['sms']} SMs at {gpu['clock_ghz']} GHz; FP64 {gpu['fp64_lanes']} "
              f"lanes/clk/SM; issue {gpu['issue']} warp-instr/clk/SM; L1/shared "
              f"{gpu['l1_bytes_clk']} B/clk/SM; L2 {gpu['l2_tbs']} TB/s ({gpu['l2_mib']} MiB); "
              f"HBM {gpu['hbm_tbs']} TB/s; L2 latency {gpu['l2_latency']} cycles")
    print("  " + "; ".join(f"{k} {v}" for k, v in MODEL.items()))
    print("  multi-bit: " + "; ".join(f"{k} {v}" for k, v in MB_MODEL.items()))
    print("  occupancy used: the blocks per SM computed above (at 100% issue efficiency); "
          "every CMux counted (a_i = 0 skipped in 1 of 2N)")

    status = 0
    print("\n--- spill check (bootstrap kernels of the default parameters, classical and "
          "multi-bit) ---")
    for arch, fn, r, hot in spills:
        tag = "FAIL" if hot else "note (not the default parameters' kernel)"
        print(f"  {tag}: {fn} sm_{arch} spills {r['spill_st']} B stores / {r['spill_ld']} B loads")
        status |= int(hot)
    for arch, fn, local in local_in_loop:
        print(f"  FAIL: {fn} sm_{arch}: {local} local loads/stores per CMux in the loop")
        status = 1
    for failure in launch_failures:
        print(f"  FAIL: {failure}")
        status = 1
    if status == 0:
        print("  ok: no spill in the default parameters' bootstrap kernels (classical and "
              "multi-bit) or their CMux loop, no local memory in a kernel the host may launch")
    if args.json:
        Path(args.json).write_text(json.dumps(dict(
            note="modelled, no GPU ran (scripts/kernel-report.py)",
            compiler=compiler_version(args), parameters=p, model=MODEL,
            gpus={g: dict(v) for g, v in GPUS.items() if v["arch"] in archs},
            kernels=modelled, multi_bit=multi_bit), indent=1) + "\n")
    return status


if __name__ == "__main__":
    sys.exit(main())

"""The multi-bit part of the static kernel report (scripts/kernel-report.py): the SASS
of the key-bundle and accumulation kernels' hot loops, and a *modelled* single-PBS
latency and FheUint64 addition latency on the report's GPUs at the multi-bit default
shape. No GPU is used; every figure is modelled (docs/kernel-report.md).

`kr` is the kernel-report module (its SASS reader, loop finder, CMux analysis,
occupancy and model), passed in by the caller.
"""

from collections import Counter


def bundle_item(kr, ins, per_group):
    """Per-thread instruction counts of one item of the key-bundle kernel (BUNDLE_CTS
    ciphertexts x BUNDLE_POLYS polynomials of one group).

    The item loop is the largest backward branch holding FP64 (the grid-stride loop);
    the loops inside it are the pattern loops, one per unrolled slot v (FP64, no loop
    inside), weighted by the 2^g - 1 patterns. Anything else stops the report."""
    all_loops = kr.loops(ins)

    def count(lo, hi, pred):
        return sum(1 for a, t in ins if lo <= a <= hi and pred(kr.opcode(t)))

    is_fp64 = lambda o: o.split(".")[0] in kr.FP64  # noqa: E731
    with_fp = [r for r in all_loops if count(*r, is_fp64) > 0]
    if not with_fp:
        kr.fail("no loop with FP64 instructions in the key-bundle kernel")
    outer = max(with_fp, key=lambda r: r[1] - r[0])
    inner = [r for r in all_loops if r != outer and outer[0] <= r[0] and r[1] <= outer[1]]
    for lo, hi in inner:
        nested = any(o != (lo, hi) and lo <= o[0] and o[1] <= hi for o in all_loops)
        if nested or count(lo, hi, is_fp64) == 0:
            kr.fail(f"unrecognised loop {lo:#x}..{hi:#x} in the key-bundle item loop")
    counts, in_patterns = Counter(), Counter()
    for addr, text in ins:
        if not outer[0] <= addr <= outer[1]:
            continue
        cls = kr.classify(kr.opcode(text))
        w = per_group if any(lo <= addr <= hi for lo, hi in inner) else 1
        counts[cls] += w
        counts["all"] += w
        if w > 1:
            in_patterns[cls] += w
    return dict(range=outer, patterns=len(inner), counts=counts, in_patterns=in_patterns)


def bundle_cycles(kr, gpu, item, pm, count, threads, blocks_per_sm):
    """Cycles of the key-bundle kernel for `count` ciphertexts (the n/g groups of each
    in one chunk): throughput of every SM, or one item's latency when there are fewer
    items than resident blocks. The key's 128-bit loads in the pattern loops are
    coalesced (4 wavefronts), the other 128-bit loads (twist-table lookups of
    ζ^{a_i}) scatter over the table (32 wavefronts each, an upper bound)."""
    c, pat = item["counts"], item["in_patterns"]
    N, k, level = pm["N"], pm["k"], pm["level"]
    groups, per_group = pm["n"] // pm["g"], (1 << pm["g"]) - 1
    polys = (k + 1) ** 2 * level
    warps = threads // 32
    items = -(-count // 4) * -(-polys // 4) * groups
    wavefronts = kr.data_path_wavefronts(c, 0, 0)
    gathers = c.get("LDG.128", 0) - pat.get("LDG.128", 0)
    wavefronts += gathers * (32 - 4)
    per_item = {
        "FP64 pipe": sum(c[x] for x in kr.FP64) * warps / (gpu["fp64_lanes"] / 32),
        "issue": c["all"] * warps / gpu["issue"],
        "L1/shared data path": wavefronts * warps * 128 / gpu["l1_bytes_clk"],
    }
    ggsw = (k + 1) ** 2 * level * N // 2 * 16
    key_bytes = groups * per_group * ggsw
    f = gpu["clock_ghz"] * 1e9
    total = {name: v * items / gpu["sms"] for name, v in per_item.items()}
    # Every BUNDLE_CTS ciphertexts read the key from L2; the bundles are written once.
    total["L2"] = (-(-count // 4) * key_bytes + count * groups * ggsw) / (gpu["l2_tbs"] * 1e12) * f
    # The blocks that run at once share the key's GGSWs: one key stream from memory.
    total["HBM"] = key_bytes / (gpu["hbm_tbs"] * 1e12) * f
    alone = max(per_item.values()) + (kr.MB_MODEL["exposed_l2_trips_per_pattern"]
                                      * per_group * 8 * gpu["l2_latency"])
    rounds = -(-items // (gpu["sms"] * blocks_per_sm))
    latency = rounds * alone
    bound = max(total, key=total.get)
    return max(total[bound], latency), (bound if total[bound] >= latency else "item latency")


def report(kr, args, results, archs, shapes, sizes, twiddles, local_in_loop):
    """Prints the multi-bit section; returns its modelled figures (for --json)."""
    pm = kr.MB_DEFAULTS
    N, k, level, g = pm["N"], pm["k"], pm["level"], pm["g"]
    groups, per_group = pm["n"] // g, (1 << g) - 1
    M, R = N // 2, sizes[N]
    rows = (k + 1) * level
    trips = {"prefetch lines": -(-rows * (M * 16 // 128) // (M // R)),
             "external product rows": rows - 1, "decomposition levels": level}
    print(f"\n--- multi-bit PBS (modelled), shape n = {pm['n']}, g = {g}, k = {k}, N = {N}, "
          f"2^{pm['base_log']} x {level}: {groups} groups of {per_group} GGSWs ---")
    analyses = {}
    for arch in archs:
        cubin = results[(arch, "programmable_bootstrap.cu")][0]
        fn = f"multi_bit_key_bundle_{N}_u64"
        item = bundle_item(kr, kr.sass(args.nvdisasm, cubin, fn), per_group)
        analyses[(arch, fn)] = item
        c = item["counts"]
        lo, hi = item["range"]
        print(f"\n{fn}, sm_{arch}: item loop {lo:#x}..{hi:#x}, {item['patterns']} pattern loops "
              f"x{per_group}; per thread per item (4 ciphertexts x 4 polynomials):")
        print("  FP64: " + " ".join(f"{x} {c[x]}" for x in kr.FP64)
              + "; memory: " + ", ".join(f"{x} {c[x]}" for x in sorted(c) if "." in x)
              + f"; all instructions {c['all']}")
        for fn in (f"multi_bit_bootstrap_{N}_u64", f"multi_bit_bootstrap_cluster_{N}_u64"):
            if "cluster" in fn and arch < 90:
                continue
            loop = kr.cmux_loop(kr.sass(args.nvdisasm, cubin, fn), trips)
            analyses[(arch, fn)] = loop
            c = loop["counts"]
            inner = ", ".join(f"{x} x{t}" for _, _, x, t in loop["inner"]) or "none"
            print(f"{fn}, sm_{arch}: CMux loop per group, inner loops: {inner}")
            print("  FP64: " + " ".join(f"{x} {c[x]}" for x in kr.FP64)
                  + f"; BAR {c['BAR']}, cluster {c['cluster barrier']}; SHFL {c['SHFL']}; "
                  f"all instructions {c['all']} (classical CMux: rotation included)")
            local = sum(v for x, v in c.items() if x.startswith(("LDL", "STL")))
            if local:
                local_in_loop.append((arch, fn, local))

    out = {}
    launch = kr.MB_MODEL["launch_cycles"]
    for gname, gpu in kr.GPUS.items():
        if gpu["arch"] not in archs or gpu["arch"] < 90:
            continue  # the Auto choice at these batch sizes is the cluster kernel (sm_90)
        arch, f = gpu["arch"], gpu["clock_ghz"] * 1e9
        res = results[(arch, "programmable_bootstrap.cu")][1]
        fn_b, fn_a = f"multi_bit_key_bundle_{N}_u64", f"multi_bit_bootstrap_cluster_{N}_u64"
        sb, sa = shapes[fn_b], shapes[fn_a]
        b_blocks, _, _ = kr.occupancy(gpu, res[fn_b]["regs"], res[fn_b]["smem"] + sb["dyn"],
                                      sb["threads"])
        a_blocks, _, _ = kr.occupancy(gpu, res[fn_a]["regs"], res[fn_a]["smem"] + sa["dyn"],
                                      sa["threads"])
        p_acc = dict(n=groups, k=k, N=N, level=level)
        ceilings, alone_ms, _, _ = kr.model(gpu, analyses[(arch, fn_a)]["counts"], sa, p_acc,
                                            a_blocks, twiddles)
        ceilings.pop("HBM (one key stream per wave)")
        ggsw = (k + 1) ** 2 * level * M * 16

        def layer(count):
            bundle, bundle_bound = bundle_cycles(kr, gpu, analyses[(arch, fn_b)], pm, count,
                                                 sb["threads"], max(b_blocks, 1))
            rate = dict(ceilings)
            # Each ciphertext reads its own bundles: from L2 while they fit half of it,
            # else from memory.
            if count * groups * ggsw > gpu["l2_mib"] * 2**20 / 2:
                rate["HBM (own bundles)"] = gpu["hbm_tbs"] * 1e12 / (groups * ggsw)
            bound = min(rate, key=rate.get)
            acc_ms = max(alone_ms, count / rate[bound] * 1e3)
            acc_bound = bound if count / rate[bound] * 1e3 > alone_ms else "one CMux chain"
            return dict(bundle_ms=bundle / f * 1e3, bundle_bound=bundle_bound,
                        accumulate_ms=acc_ms, accumulate_bound=acc_bound,
                        launches_ms=2 * launch / f * 1e3,
                        total_ms=bundle / f * 1e3 + acc_ms + 2 * launch / f * 1e3)

        single = layer(1)
        batch = layer(kr.FHE_UINT64_ADD["blocks"])
        add = kr.FHE_UINT64_ADD
        # One keyswitch per layer: its key (2048 -> n, ks_level levels) streamed once.
        ks_ms = (k * N * add["ks_level"] * (pm["n"] + 1) * 8 / (gpu["hbm_tbs"] * 1e12) * 1e3
                 + launch / f * 1e3)
        add_ms = add["layers"] * (batch["total_ms"] + ks_ms)
        out[gname] = dict(single_pbs=single, layer_of_32=batch, keyswitch_ms=ks_ms,
                          fhe_uint64_add_ms=add_ms, accumulate_blocks_per_sm=a_blocks,
                          bundle_blocks_per_sm=b_blocks)
        print(f"\n{gname} (Auto: {fn_a} for batches up to {gpu['sms'] // (k + 1)}):")
        for name, r in (("single PBS", single), (f"batch of {add['blocks']}", batch)):
            print(f"  {name}: key bundles {r['bundle_ms']:.3f} ms (bound: {r['bundle_bound']}) "
                  f"+ accumulation {r['accumulate_ms']:.3f} ms (bound: {r['accumulate_bound']}) "
                  f"+ launches {r['launches_ms']:.3f} ms = {r['total_ms']:.3f} ms (modelled)")
        print(f"  => single multi-bit PBS latency: {single['total_ms']:.3f} ms (modelled; "
              f"issue bar 1.0 ms)")
        print(f"  => FheUint64 add: {add['layers']} layers x ({batch['total_ms']:.3f} ms PBS of "
              f"{add['blocks']} blocks + {ks_ms:.3f} ms keyswitch) = {add_ms:.2f} ms (modelled; "
              f"issue bar 6 ms)")
    return out

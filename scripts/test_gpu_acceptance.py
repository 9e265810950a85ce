#!/usr/bin/env python3
"""Tests of scripts/gpu_acceptance.py on canned logs (scripts/testdata/first-look: a
made-up first look with gpu_first_look's, libtest's, compute-sanitizer's and Nsight
Compute's outputs, and the kernel model). No GPU. Run: python3
scripts/test_gpu_acceptance.py
"""

import sys
import unittest
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import gpu_acceptance as ga  # noqa: E402

DATA = HERE / "testdata" / "first-look"
LOGS = DATA / "logs"
MODEL = DATA / "kernel-model.json"


def libtest(passed, failed=0, filtered=0, skipped=()):
    lines = ["", f"running {passed + failed} tests"]
    lines += [f"SKIPPED {s} [t]" for s in skipped]
    result = "ok" if failed == 0 else "FAILED"
    lines.append(f"test result: {result}. {passed} passed; {failed} failed; 0 ignored; "
                 f"0 measured; {filtered} filtered out; finished in 1.00s")
    return "\n".join(lines) + "\n"


class Parsers(unittest.TestCase):
    def test_result_lines(self):
        rows = ga.results((LOGS / "bootstrap.log").read_text())
        self.assertEqual([r["params"] for r in rows], ["classical", "multi-bit"])
        self.assertEqual((rows[0]["count"], rows[0]["ratio"]), ("1024", "1.057"))

    def test_expected_skips_pass_and_others_fail(self):
        fake = "(needs the fake CUDA driver: scripts/fake-cuda.sh)"
        self.assertEqual(ga.libtest_verdict(libtest(3, skipped=[fake, "(needs two GPUs)"]), 0),
                         "ok")
        self.assertEqual(ga.libtest_verdict(libtest(3, skipped=["(needs 2 GPUs, 1 visible)"]), 0),
                         "ok")
        verdict = ga.libtest_verdict(libtest(3, skipped=["(no CUDA device)"]), 0)
        self.assertTrue(verdict.startswith("FAIL (1 unexpected skips"), verdict)

    def test_a_filter_that_matches_nothing_fails(self):
        self.assertEqual(ga.libtest_verdict(libtest(0, filtered=63), 0),
                         "FAIL (no test matched the filters)")
        self.assertEqual(ga.libtest_verdict("no output at all\n", 0), "FAIL (no libtest result)")
        self.assertEqual(ga.libtest_verdict(libtest(2, failed=1), 101), "FAIL (rc 101)")

    def test_sanitizer_errors_per_tool(self):
        errors = ga.sanitizer_errors((LOGS / "sanitize.log").read_text())
        self.assertEqual(errors, {"memcheck": 0, "racecheck": 1, "synccheck": 0,
                                  "initcheck": None})
        both = "========= RACECHECK SUMMARY: 3 hazards displayed (2 errors, 1 warning)\n" \
               "========= ERROR SUMMARY: 2 errors\n"
        self.assertEqual(ga.parse_sanitizer(both), 2)

    def test_ncu_csv_units_and_grid(self):
        rows = ga.parse_ncu_csv((DATA / "ncu-throughput.csv").read_text())
        self.assertEqual(len(rows), 1)
        r = rows[0]
        self.assertEqual((r["kernel"], r["grid_x"], r["cc"]),
                         ("programmable_bootstrap_2048_u64", 4096, "9.0"))
        self.assertEqual(r["gpu__time_duration.sum"], 135_000_000 * 1e-9)
        self.assertEqual(r["smsp__inst_executed.sum"], 17.9e6 * 4096)

    def test_ncu_latency_against_the_single_pbs_model(self):
        text = ga.ncu_section(DATA / "ncu-latency.csv", MODEL)
        self.assertIn("programmable_bootstrap_cluster_2048_u64, grid 2 = 1 bootstraps", text)
        self.assertIn("| kernel time, ms (model: one PBS alone) | 3.3 | 2.8 |", text)

    def test_ncu_metrics_filtered_by_what_ncu_knows(self):
        have, missing = ga.ncu_wanted((DATA / "ncu-query-metrics.txt").read_text())
        self.assertIn("smsp__inst_executed.sum", have)
        self.assertEqual(missing, ["sm__inst_executed_pipe_fp64.avg.pct_of_peak_sustained_active"])


class Summary(unittest.TestCase):
    text = ga.first_look_summary(LOGS, MODEL)

    def row(self, start):
        line = next((l for l in self.text.splitlines() if l.startswith(start)), None)
        self.assertIsNotNone(line, start)
        return [c.strip() for c in line.strip("|").split("|")]

    def test_the_verdict_comes_first_with_its_reasons(self):
        first = self.text.splitlines()[1]
        self.assertTrue(first.startswith("**Verdict: FAIL**"), first)
        self.assertIn("tests: FAIL (1 unexpected skips: (no CUDA device) [gpu_selection::", first)
        self.assertIn("; no test matched the filters)", first)
        self.assertIn("sanitize: INCOMPLETE (cut at its budget)", first)
        self.assertIn("failure-rate: INCOMPLETE (no time left)", first)

    def test_key_numbers_measured_modelled_and_tfhe_rs(self):
        self.assertEqual(self.row("| classical KS+PBS alone, ms |")[1:4],
                         ["2.9", "2.8", "4.31 ms"])
        self.assertEqual(self.row("| classical KS+PBS/s, batch of 4096 |")[1:3],
                         ["40,000", "33,733"])
        self.assertEqual(self.row("| classical FheUint64 add alone, ms |")[3], "9.52 ms")
        self.assertEqual(self.row("| multi-bit bootstrap noise")[1], "1.15")
        guide = self.row("| guide: FheUint64 adds/s (1 GPU, best at 8 streams/GPU)")
        self.assertEqual(guide[1], "250")
        self.assertEqual(self.row("| multi-bit KS+PBS alone, ms |")[1], "0.9")

    def test_the_bootstrap_kernels_side_by_side(self):
        # The same batch through one block and one cluster per bootstrap, their ratio,
        # the faster, and what Auto took after the calibration timed them.
        self.assertEqual(self.row("| classical | 4096 |")[2:],
                         ["29,257", "36,571", "1.25", "cluster", "cluster"])
        self.assertEqual(self.row("| multi-bit | 4096 |")[2:],
                         ["68,267", "not run", "-", "-", "not_measured"])
        self.assertIn("multi-bit, cluster: invalid parameter: no GPU multi-bit bootstrap", self.text)
        # Measured against the kernel model's batched figure of each kernel.
        self.assertEqual(self.row("| classical PBS/s, one block per bootstrap, batch of 4096 |")[1:3],
                         ["29,257", "33,733"])
        self.assertEqual(self.row("| classical PBS/s, one cluster per bootstrap")[1:3],
                         ["36,571", "33,733"])
        self.assertEqual(self.row("| kernels |")[1:4], ["ok", "38", "60"])

    def test_steps_table(self):
        self.assertEqual(self.row("| bootstrap |")[1:4], ["ok", "21", "90"])
        self.assertEqual(self.row("| operation-tests |")[1], "ok")
        self.assertEqual(self.row("| ncu |")[1], "not run")

    def test_environment_results_and_ncu(self):
        self.assertIn("- nvidia-smi: NVIDIA H100 80GB HBM3", self.text)
        self.assertIn("- TOOL ncu cannot run here: ==ERROR== LibraryNotLoaded", self.text)
        self.assertIn("| classical | div | true | 14 | - | 14 |", self.text)
        self.assertIn("- racecheck: 1", self.text)
        self.assertIn("programmable_bootstrap_2048_u64, grid 4096 = 4096 bootstraps", self.text)
        self.assertEqual(self.row("| PBS/s (one launch")[1], "30,341")

    def test_without_a_model(self):
        text = ga.first_look_summary(LOGS)
        self.assertIn("| figure | measured | modelled (no model) |", text)
        self.assertIn("(modelled: no model)", text)

    def test_a_good_run_passes(self):
        import shutil
        import tempfile
        with tempfile.TemporaryDirectory() as tmp:
            logs = Path(tmp)
            for f in LOGS.iterdir():
                shutil.copy(f, logs)
            (logs / "tests.log").write_text(libtest(58, skipped=["(needs two GPUs)"]))
            (logs / "sanitize.log").write_text("=== memcheck\n========= ERROR SUMMARY: 0 errors\n")
            (logs / "sanitize.rc").write_text("rc=0 seconds=50 budget=120\n")
            (logs / "failure-rate.log").write_text(
                "RESULT step=failure_rate params=classical bootstraps=1000000 failures=0\n")
            (logs / "failure-rate.rc").write_text("rc=0 seconds=60 budget=70\n")
            text = ga.first_look_summary(logs, MODEL)
            self.assertTrue(text.splitlines()[1].startswith("**Verdict: PASS**"), text[:300])
            self.assertIn("| failure rate: bootstraps, failures | 1000000, 0 |", text)


if __name__ == "__main__":
    unittest.main()

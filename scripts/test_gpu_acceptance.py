#!/usr/bin/env python3
"""Tests of scripts/gpu_acceptance.py on canned logs (scripts/testdata/gpu-acceptance:
libtest, compute-sanitizer, criterion and Nsight Compute outputs of a made-up run).
No GPU. Run: python3 scripts/test_gpu_acceptance.py
"""

import sys
import unittest
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import gpu_acceptance as ga  # noqa: E402

DATA = HERE / "testdata" / "gpu-acceptance"
LOGS = DATA / "logs"
MODEL = DATA / "kernel-model.json"


class Parsers(unittest.TestCase):
    def test_libtest_totals_and_failures(self):
        t = ga.parse_libtest((LOGS / "tests/cuda_bootstrap.log").read_text())
        self.assertEqual((t["passed"], t["failed"], t["filtered"], t["results"]), (2, 1, 3, 1))
        self.assertEqual(t["failures"], ["invalid_bootstrap_batches_are_errors"])

    def test_a_skip_is_counted(self):
        t = ga.parse_libtest((LOGS / "tests/gpu_selection.log").read_text())
        self.assertEqual((t["passed"], t["skipped"]), (1, 1))

    def test_sanitizer_summaries(self):
        read = lambda name: (LOGS / "sanitize" / name).read_text()  # noqa: E731
        self.assertEqual(ga.parse_sanitizer(read("memcheck--cuda_lwe_add.log")), 0)
        self.assertEqual(ga.parse_sanitizer(read("racecheck--cuda_bootstrap.log")), 1)
        self.assertIsNone(ga.parse_sanitizer(read("initcheck--cuda_keyswitch.log")))
        both = "========= RACECHECK SUMMARY: 3 hazards displayed (2 errors, 1 warning)\n" \
               "========= ERROR SUMMARY: 2 errors\n"
        self.assertEqual(ga.parse_sanitizer(both), 2)

    def test_criterion_medians_and_throughput(self):
        results = dict((i, (ns, e)) for i, ns, e in ga.criterion_results(LOGS / "bench/criterion"))
        self.assertEqual(results["cuda/pbs/throughput/4096"], (204800000.0, 4096))
        self.assertEqual(results["cuda/pbs/latency"], (3100000.0, None))

    def test_ncu_csv_units_and_grid(self):
        rows = ga.parse_ncu_csv((LOGS / "ncu/pbs-throughput-4096.csv").read_text())
        self.assertEqual(len(rows), 1)
        r = rows[0]
        self.assertEqual((r["kernel"], r["grid_x"], r["cc"]),
                         ("programmable_bootstrap_2048_u64", 4096, "9.0"))
        self.assertEqual(r["gpu__time_duration.sum"], 135_000_000 * 1e-9)
        self.assertEqual(r["smsp__inst_executed.sum"], 17.9e6 * 4096)

    def test_ncu_metrics_filtered_by_what_ncu_knows(self):
        have, missing = ga.ncu_wanted((LOGS / "ncu/query-metrics.txt").read_text())
        self.assertIn("smsp__inst_executed.sum", have)
        self.assertEqual(missing, ["sm__inst_executed_pipe_fp64.avg.pct_of_peak_sustained_active"])


class Summary(unittest.TestCase):
    text = ga.summary(DATA, MODEL)

    def row(self, start):
        line = next((l for l in self.text.splitlines() if l.startswith(start)), None)
        self.assertIsNotNone(line, start)
        return [c.strip() for c in line.strip("|").split("|")]

    def test_tests_verdicts(self):
        self.assertEqual(self.row("| cuda_lwe_add | ok")[1:4], ["ok", "3", "0"])
        self.assertEqual(self.row("| cuda_bootstrap |")[1], "FAIL (rc 101)")
        self.assertEqual(self.row("| gpu_selection |")[1], "FAIL (tests skipped)")
        self.assertEqual(self.row("| scheduler_gpu |")[1], "TIMEOUT")
        self.assertIn("- cuda_bootstrap: failed invalid_bootstrap_batches_are_errors", self.text)

    def test_sanitizer_rows(self):
        self.assertEqual(self.row("| racecheck | cuda_bootstrap |")[2:4], ["FAIL (rc 97)", "1"])
        self.assertEqual(self.row("| memcheck | cuda_lwe_add |")[2:4], ["ok", "0"])
        self.assertEqual(self.row("| initcheck |")[2], "FAIL (rc 1)")

    def test_bench_next_to_the_model(self):
        row = self.row("| cuda/pbs/throughput/4096 |")
        self.assertEqual(row[1:3], ["204.800 ms", "20,000 elements/s"])
        self.assertIn("PBS/s", row[3])
        self.assertEqual(self.row("| cuda/pbs/latency |")[3], "2.80 ms")

    def test_ncu_measured_next_to_modelled(self):
        self.assertIn("programmable_bootstrap_2048_u64, grid 4096 = 4096 bootstraps", self.text)
        self.assertIn("programmable_bootstrap_cluster_2048_u64, grid 2 = 1 bootstraps", self.text)
        row = self.row("| PBS/s (one launch")
        self.assertEqual(row[1], "30,341")
        self.assertEqual(self.row("| kernel time, ms")[1:3], ["3.3", "2.8"])
        self.assertEqual(self.row("| shared wavefronts per PBS")[1], "4,400,000")

    def test_environment_and_notes(self):
        self.assertIn("- nvidia-smi: NVIDIA H100 80GB HBM3", self.text)
        self.assertIn("- ncu lacks:", self.text)

    def test_without_a_model(self):
        text = ga.summary(DATA)
        self.assertIn("| cuda/pbs/throughput/4096 | 204.800 ms | 20,000 elements/s | - |", text)
        self.assertIn("(modelled: no model)", text)


if __name__ == "__main__":
    unittest.main()

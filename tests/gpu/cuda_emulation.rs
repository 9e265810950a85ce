//! The CUDA kernels run on the CPU through the emulation in `testing/cuda-emu/` (every GPU
//! thread a fiber, barriers and warp shuffles as fiber switches), against the CPU
//! implementation. It checks the kernels' arithmetic, indexing and barriers where
//! there is no GPU: results must not depend on the order in which threads run
//! between barriers (a missing barrier shows up as a difference), a barrier that not
//! every thread reaches fails as a deadlock, buffers are exact heap blocks, and the
//! launch geometry mirrors the host code's. Needs a C++20 compiler (`$CXX`, else
//! `g++`); prints `SKIPPED (no C++ compiler)` and passes without one.

use crate::cuda_support;

use cuda_support::*;
use gpufhe::backend::cpu::CpuBackend;
use gpufhe::backend::cuda::{lookup_table_accumulators, lookup_table_bodies};
use gpufhe::backend::{Backend, BlockExpr, Step, Table, Term};
use gpufhe::core_crypto::*;
use gpufhe::shortint::{Ciphertext, ClientKey, ServerKey, ShortintParameters, DEFAULT_PARAMETERS};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::OnceLock;

/// How the emulation is compiled: plain, or under a sanitizer.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Build {
    Plain,
    /// `-fsanitize=address`: out-of-bounds accesses to device buffers and shared
    /// memory (each a heap block of its exact size) abort the run.
    Address,
    /// `-fsanitize=thread`: every emulated thread is a TSan fiber (see
    /// `testing/cuda-emu/cuda_emu.h`); two threads touching a word between barriers abort
    /// the run.
    Thread,
}

impl Build {
    fn name(self) -> &'static str {
        match self {
            Build::Plain => "plain",
            Build::Address => "address",
            Build::Thread => "thread",
        }
    }

    fn flags(self) -> &'static [&'static str] {
        match self {
            Build::Plain => &["-O2"],
            Build::Address => &["-O1", "-g", "-fsanitize=address", "-fno-omit-frame-pointer"],
            Build::Thread => &["-O1", "-g", "-fsanitize=thread"],
        }
    }
}

/// The kernels' `fma()` as one instruction where the CPU has it (otherwise a call
/// into libm, which made the emulation a quarter slower), and no other contraction,
/// so that results stay the same (as `scripts/fake-cuda.sh` compiles them).
fn fma_flags() -> &'static [&'static str] {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("fma") {
        return &["-mfma", "-ffp-contract=off"];
    }
    &[]
}

/// Compiles `sources` (the `.cu` files as C++ with the emulation header) into the
/// program `name` of the build `build`; `None` without a C++ compiler.
pub(crate) fn compile(build: Build, name: &str, sources: &[PathBuf]) -> Option<PathBuf> {
    let cxx = std::env::var("CXX").unwrap_or_else(|_| "g++".into());
    Command::new(&cxx).arg("--version").output().ok()?;
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("cuda-emulation")
        .join(build.name());
    std::fs::create_dir_all(&out).expect("scratch directory");
    // Every source at once (each compiler is one process), then the link.
    let mut compiling = Vec::new();
    for src in sources {
        let file = src.file_name().expect("file name").to_string_lossy();
        let object = out.join(format!("{file}.o"));
        let mut cmd = Command::new(&cxx);
        cmd.args(["-std=c++20", "-DGPUFHE_EMULATION", "-D__CUDA_ARCH__=900"])
            .args(build.flags())
            .args(fma_flags())
            .arg("-I")
            .arg(root.join("testing/cuda-emu"))
            .arg("-I")
            .arg(root.join("cuda"));
        if src.extension().is_some_and(|e| e == "cu") || file == "planted_bugs.cpp" {
            cmd.args(["-x", "c++", "-include"])
                .arg(root.join("testing/cuda-emu/cuda_emu.h"));
        }
        let child = cmd.arg("-c").arg(src).arg("-o").arg(&object).spawn();
        compiling.push((src, object, child));
    }
    let mut objects = Vec::new();
    for (src, object, child) in compiling {
        let status = child.and_then(|mut c| c.wait());
        assert!(
            status.is_ok_and(|s| s.success()),
            "{cxx} failed on {} ({build:?})",
            src.display()
        );
        objects.push(object);
    }
    let binary = out.join(name);
    let status = Command::new(&cxx)
        .args(build.flags())
        .arg("-o")
        .arg(&binary)
        .args(&objects)
        .status();
    assert!(
        status.is_ok_and(|s| s.success()),
        "linking {name} ({build:?}) failed"
    );
    Some(binary)
}

/// The emulation harness of `build`, compiled once per test process; `None` (and
/// `SKIPPED`) without a C++ compiler.
pub(crate) fn harness_of(build: Build) -> Option<&'static Path> {
    static HARNESSES: [OnceLock<Option<PathBuf>>; 3] =
        [OnceLock::new(), OnceLock::new(), OnceLock::new()];
    let built = HARNESSES[build as usize].get_or_init(|| {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let sources: Vec<PathBuf> = [
            "programmable_bootstrap.cu",
            "keyswitch.cu",
            "linear_combination.cu",
            "noise_squashing_bootstrap.cu",
        ]
        .iter()
        .map(|s| root.join("cuda").join(s))
        .chain([root.join("testing/cuda-emu/harness.cpp")])
        .collect();
        compile(build, "harness", &sources)
    });
    if built.is_none() {
        crate::skip::report_skipped(format_args!("(no C++ compiler)"));
    }
    built.as_deref()
}

/// The plain emulation harness.
fn harness() -> Option<&'static Path> {
    harness_of(Build::Plain)
}

/// A scratch directory of its own for one check (tests run in parallel), removed
/// when dropped.
pub(crate) struct Scratch(PathBuf);

impl std::ops::Deref for Scratch {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.0
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

pub(crate) fn scratch(name: &str) -> Scratch {
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    let id = NEXT.fetch_add(1, Ordering::Relaxed);
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("cuda-emulation")
        .join(format!("{name}-{}-{id}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("scratch directory");
    Scratch(dir)
}

pub(crate) fn write_u64(path: PathBuf, v: &[u64]) {
    let bytes: Vec<u8> = v.iter().flat_map(|x| x.to_le_bytes()).collect();
    std::fs::write(path, bytes).expect("write");
}

pub(crate) fn write_meta(dir: &Path, v: &[usize]) {
    let text: Vec<String> = v.iter().map(|x| x.to_string()).collect();
    std::fs::write(dir.join("meta.txt"), text.join(" ")).expect("write");
}

/// The lookup tables' accumulators (GLWE ciphertexts), one after the other: what the
/// kernels read.
fn accumulators(params: &ShortintParameters, tables: &[&Table]) -> Vec<u64> {
    lookup_table_accumulators(params, tables)
        .unwrap()
        .iter()
        .flat_map(|acc| acc.as_slice().to_vec())
        .collect()
}

/// Sanitizer settings of every run: the first report ends the run with a failure
/// status; leaks are not looked for (the emulation keeps its fiber stacks).
fn sanitizer_options(cmd: &mut Command) -> &mut Command {
    cmd.env("ASAN_OPTIONS", "detect_leaks=0:halt_on_error=1")
        .env("TSAN_OPTIONS", "halt_on_error=1:exitcode=66")
}

/// Runs `harness <command> <dir> <order>` and returns its `output.bin`.
pub(crate) fn run(harness: &Path, command: &str, dir: &Path, order: &str) -> Vec<u64> {
    let status = sanitizer_options(&mut Command::new(harness))
        .arg(command)
        .arg(dir)
        .arg(order)
        .status()
        .expect("run the harness");
    assert!(status.success(), "emulated {command} ({order}) failed");
    std::fs::read(dir.join("output.bin"))
        .expect("read")
        .chunks_exact(8)
        .map(|c| u64::from_le_bytes(c.try_into().expect("8 bytes")))
        .collect()
}

#[test]
fn emulated_linear_step_is_bit_identical_to_the_cpu_backend() {
    let Some(harness) = harness() else { return };
    check_linear(harness);
}

/// 300 linear expressions of 37 blocks: the emulated kernel's output must be the CPU
/// backend's, bit for bit.
fn check_linear(harness: &Path) {
    let params = small_parameters();
    let ck = ClientKey::new(params).unwrap();
    let backend = CpuBackend::new(ServerKey::new(&ck).unwrap());
    let a: Vec<Ciphertext> = (0..30).map(|i| ck.encrypt(i % 4).unwrap()).collect();
    let b: Vec<Ciphertext> = (0..7).map(|i| ck.encrypt((i * 3) % 4).unwrap()).collect();
    let blocks = a.len() + b.len();
    let t = |block, scalar| Term { block, scalar };
    let exprs: Vec<BlockExpr> = (0..300)
        .map(|e| {
            let (x, y) = ((e * 13 + 5) % blocks, (e * 7 + 1) % blocks);
            let (terms, constant) = match e % 5 {
                0 => (vec![t(x, 1), t(y, 1)], 0),
                1 => (vec![t(x, 2), t(y, -1)], 3),
                2 => (vec![t(x, 3), t(y, 2)], 0),
                3 => (vec![], e as u64 % 16),
                _ => (vec![t(x, -1)], 3),
            };
            BlockExpr {
                terms,
                constant,
                table: None,
            }
        })
        .collect();
    let step = Step {
        exprs: exprs.clone(),
        tables: vec![],
    };
    let cpu = backend.eval(&[&a, &b], &step).unwrap();
    let dir = scratch("linear");
    let size = params.big_lwe_dimension().to_lwe_size().0;
    write_meta(&dir, &[size, exprs.len()]);
    let both: Vec<Ciphertext> = a.iter().chain(&b).cloned().collect();
    write_u64(dir.join("inputs.bin"), block_list(&both).as_slice());
    let mut offsets = vec![0u64];
    let (mut sources, mut scalars) = (vec![], vec![]);
    for e in &exprs {
        for term in &e.terms {
            sources.push(term.block as u64);
            scalars.push(term.scalar as u64);
        }
        offsets.push(sources.len() as u64);
    }
    write_u64(dir.join("offsets.bin"), &offsets);
    write_u64(dir.join("sources.bin"), &sources);
    write_u64(dir.join("scalars.bin"), &scalars);
    let constants: Vec<u64> = exprs
        .iter()
        .map(|e| e.constant.wrapping_mul(params.delta()))
        .collect();
    write_u64(dir.join("constants.bin"), &constants);
    let out = run(harness, "linear", &dir, "forward");
    assert_eq!(
        out,
        block_list(&cpu).as_slice(),
        "emulated and CPU linear steps differ"
    );
}

fn check_keyswitch(harness: &Path, keys: &HostKeys, cts: &[LweCiphertextOwned], sms: usize) {
    let ksk = keys.cpu.keyswitch_key();
    let s = ksk.shape();
    let dir = scratch("keyswitch");
    let shape = [
        s.input_lwe_dimension.0,
        s.output_lwe_dimension.0,
        s.base_log.0,
        s.level.0,
        cts.len(),
        sms,
    ];
    write_meta(&dir, &shape);
    write_u64(dir.join("ksk.bin"), ksk.as_slice());
    write_u64(dir.join("input.bin"), lwe_list(cts).as_slice());
    let size = ksk.output_lwe_size().0;
    for order in ["forward", "reverse"] {
        let out = run(harness, "ks", &dir, order);
        for (j, ct) in cts.iter().enumerate() {
            let mut c = LweCiphertextOwned::new_zero(ksk.output_lwe_size());
            keyswitch_lwe_ciphertext(ksk, ct, &mut c).unwrap();
            assert_eq!(
                &out[j * size..(j + 1) * size],
                c.as_slice(),
                "keyswitch {j} of {}, {order}",
                cts.len()
            );
        }
    }
}

#[test]
fn emulated_keyswitch_is_bit_identical_to_the_cpu() {
    let Some(harness) = harness() else { return };
    let keys = HostKeys::new(small_parameters());
    let mut cts: Vec<LweCiphertextOwned> = (0..20)
        .map(|i| keys.ck.encrypt_with_carry(i % 16).unwrap().as_lwe().clone())
        .collect();
    // Uniformly random ciphertexts reach every digit, B/2 with both tie outcomes.
    let mut state = 7u64;
    let size = keys.params().big_lwe_dimension().to_lwe_size().0;
    while cts.len() < 40 {
        let v = (0..size)
            .map(|_| {
                state = state
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                state ^ (state >> 29)
            })
            .collect();
        cts.push(LweCiphertextOwned::from_container(v).unwrap());
    }
    // Split key rows (for 132 SMs) with every kernel (1, 2, 8 and 16 ciphertexts per
    // block, 17 with a partial tile), then no split (1 SM).
    for count in [1, 2, 6, 17, 40] {
        check_keyswitch(harness, &keys, &cts[..count], 132);
    }
    check_keyswitch(harness, &keys, &cts, 1);
    // The default parameters (2048 -> 918, 4 levels of 2^4).
    let keys = HostKeys::new(DEFAULT_PARAMETERS);
    let blocks: Vec<LweCiphertextOwned> = (0..3)
        .map(|i| keys.ck.encrypt_with_carry(i * 5).unwrap().as_lwe().clone())
        .collect();
    check_keyswitch(harness, &keys, &blocks, 132);
}

/// Bootstraps `batch` under the emulation with each kernel (single block, cluster)
/// and each thread order; all results must be the same bits and decrypt right.
fn check_bootstrap(harness: &Path, params: ShortintParameters, count: usize, orders: &[&str]) {
    let keys = HostKeys::new(params);
    let batch = make_batch(&keys, count);
    let dir = scratch("bootstrap");
    write_u64(dir.join("bsk.bin"), keys.standard_bsk.as_slice());
    let small: Vec<LweCiphertextOwned> = batch
        .blocks
        .iter()
        .map(|b| keys.cpu.keyswitch(b).unwrap())
        .collect();
    write_u64(dir.join("input.bin"), lwe_list(&small).as_slice());
    let tables = tables(&params);
    let refs: Vec<&Table> = tables.iter().collect();
    write_u64(dir.join("luts.bin"), &accumulators(&params, &refs));
    let jobs: Vec<u8> = (0..count)
        .flat_map(|j| {
            let lut = batch.lut_indexes[j];
            [lut, batch.output_slots[j], FUNCTIONS[lut].len()]
        })
        .flat_map(|x| (x as u32).to_le_bytes())
        .collect();
    std::fs::write(dir.join("jobs.bin"), jobs).unwrap();
    let what = format!(
        "N = {}, k = {}, 2^{} x {}, {:?}",
        params.polynomial_size.0,
        params.glwe_dimension.0,
        params.pbs_base_log.0,
        params.pbs_level.0,
        params.modulus_switch
    );
    let centered = params.modulus_switch == ModulusSwitchType::CenteredMeanNoiseReduction;
    let mut first: Option<Vec<u64>> = None;
    for cluster in [false, true] {
        write_meta(
            &dir,
            &[
                params.lwe_dimension.0,
                params.glwe_dimension.0,
                params.polynomial_size.0,
                params.pbs_base_log.0,
                params.pbs_level.0,
                centered as usize,
                count,
                batch.outputs,
                cluster as usize,
            ],
        );
        for order in orders {
            let out = run(harness, "pbs", &dir, order);
            let list = LweCiphertextList::from_container(
                out.clone(),
                params.big_lwe_dimension().to_lwe_size(),
            )
            .unwrap();
            let label = format!("{what}, cluster {cluster}, {order}");
            check_outputs(&keys, &batch, &list, &label);
            match &first {
                None => {
                    check_against_cpu(&keys, &batch, &list, count);
                    first = Some(out);
                }
                Some(f) => assert!(f == &out, "{label}: results differ from the first run"),
            }
        }
    }
}

#[test]
fn emulated_bootstrap_matches_the_cpu_in_every_thread_order() {
    let Some(harness) = harness() else { return };
    let orders = ["forward", "reverse", "shuffled"];
    check_bootstrap(harness, small_parameters(), 6, &orders);
}

/// Every polynomial size the kernels are built for (at N = 4096 each thread of the
/// single block holds both polynomials of k = 1), GLWE dimension 2, several
/// decomposition levels and the standard modulus switch (small LWE dimensions keep
/// the emulation fast).
#[test]
fn emulated_bootstrap_shapes_and_decompositions() {
    let Some(harness) = harness() else { return };
    let mut standard = insecure_parameters(64, 1, 512, 23, 1);
    standard.modulus_switch = ModulusSwitchType::Standard;
    let cases = [
        insecure_parameters(64, 2, 256, 23, 1),
        insecure_parameters(64, 1, 512, 12, 3),
        insecure_parameters(48, 1, 1024, 15, 2),
        insecure_parameters(16, 1, 4096, 23, 1),
        standard,
    ];
    for params in cases {
        check_bootstrap(harness, params, 5, &["forward", "reverse"]);
    }
}

#[test]
fn emulated_bootstrap_on_the_default_parameters() {
    let Some(harness) = harness() else { return };
    check_bootstrap(harness, DEFAULT_PARAMETERS, 1, &["forward"]);
}

/// A multi-bit bootstrap key of grouping factor `g` for `keys` (standard domain),
/// generated over the indicator bits of the small key.
fn multi_bit_key(keys: &HostKeys, g: usize) -> LweBootstrapKey {
    let p = keys.params();
    let bits = multi_bit_lwe_secret_key(keys.ck.small_lwe_secret_key(), g).unwrap();
    let mut rng =
        EncryptionRandomGenerator::from_seeds_insecure(CompressionSeed::new(4), Seed([5; 32]));
    generate_seeded_lwe_bootstrap_key(
        &bits,
        keys.ck.glwe_secret_key(),
        p.pbs_base_log,
        p.pbs_level,
        p.glwe_noise_distribution,
        CompressionSeed::new(6),
        &mut rng,
    )
    .unwrap()
    .decompress()
}

/// The CPU's multi-bit bootstrap of `small` through `body` (the accumulator body
/// polynomial), the functions' coefficients extracted as the kernel does.
fn cpu_multi_bit(
    keys: &HostKeys,
    bsk: &FourierLweBootstrapKey,
    g: usize,
    small: &LweCiphertextOwned,
    body: &[u64],
    functions: usize,
) -> Vec<LweCiphertextOwned> {
    let p = keys.params();
    let n = p.polynomial_size;
    let switched = modulus_switch_lwe_ciphertext(small, n.log2() + 1, p.modulus_switch).unwrap();
    let mut table = vec![0u64; p.glwe_dimension.0 * n.0];
    table.extend_from_slice(body);
    let mut acc = GlweCiphertext::from_container(table, n).unwrap();
    multi_bit_blind_rotate_assign(&mut acc, &switched, bsk, g).unwrap();
    (0..functions)
        .map(|f| {
            let mut out = LweCiphertextOwned::new_zero(p.big_lwe_dimension().to_lwe_size());
            extract_lwe_sample_from_glwe_ciphertext(&acc, &mut out, f * n.0 / functions).unwrap();
            out
        })
        .collect()
}

/// Multi-bit bootstraps of `count` ciphertexts (tables of 1, 2 and 4 functions) under
/// the emulation, `chunk` groups per key-bundle/accumulate pair (the last chunk may be
/// partial), with each kernel (single block, cluster) and each thread order: all
/// results must be the same bits, and decrypt to the CPU's
/// `multi_bit_blind_rotate_assign` results with an error below Δ/8 (not bit for bit:
/// the two FFTs round differently, see `check_against_cpu`).
fn check_multi_bit(
    harness: &Path,
    params: ShortintParameters,
    g: usize,
    count: usize,
    chunk: usize,
    orders: &[&str],
) {
    let keys = HostKeys::new(params);
    let batch = make_batch(&keys, count);
    let bsk = multi_bit_key(&keys, g);
    let fourier = FourierLweBootstrapKey::from_standard(&bsk);
    let dir = scratch("multi-bit");
    write_u64(dir.join("bsk.bin"), bsk.as_slice());
    let small: Vec<LweCiphertextOwned> = batch
        .blocks
        .iter()
        .map(|b| keys.cpu.keyswitch(b).unwrap())
        .collect();
    write_u64(dir.join("input.bin"), lwe_list(&small).as_slice());
    let tables = tables(&params);
    let refs: Vec<&Table> = tables.iter().collect();
    let bodies = lookup_table_bodies(&params, &refs).unwrap();
    write_u64(dir.join("luts.bin"), &accumulators(&params, &refs));
    let jobs: Vec<u8> = (0..count)
        .flat_map(|j| {
            let lut = batch.lut_indexes[j];
            [lut, batch.output_slots[j], FUNCTIONS[lut].len()]
        })
        .flat_map(|x| (x as u32).to_le_bytes())
        .collect();
    std::fs::write(dir.join("jobs.bin"), jobs).unwrap();
    let n = params.polynomial_size.0;
    let what = format!(
        "multi-bit g = {g}, n = {}, N = {n}, k = {}, 2^{} x {}, chunk {chunk}",
        params.lwe_dimension.0, params.glwe_dimension.0, params.pbs_base_log.0, params.pbs_level.0,
    );
    let centered = params.modulus_switch == ModulusSwitchType::CenteredMeanNoiseReduction;
    let mut first: Option<Vec<u64>> = None;
    for cluster in [false, true] {
        write_meta(
            &dir,
            &[
                params.lwe_dimension.0,
                params.glwe_dimension.0,
                n,
                params.pbs_base_log.0,
                params.pbs_level.0,
                centered as usize,
                count,
                batch.outputs,
                cluster as usize,
                g,
                chunk,
                // A grid smaller than the work: the blocks loop over it.
                7,
            ],
        );
        for order in orders {
            let out = run(harness, "mbpbs", &dir, order);
            let list = LweCiphertextList::from_container(
                out.clone(),
                params.big_lwe_dimension().to_lwe_size(),
            )
            .unwrap();
            let label = format!("{what}, cluster {cluster}, {order}");
            let errors = check_outputs(&keys, &batch, &list, &label);
            let bound = (params.delta() / 8) as i64;
            assert!(
                errors.iter().all(|e| e.abs() < bound),
                "{label}: errors {errors:?}"
            );
            match &first {
                None => {
                    let outs: Vec<LweCiphertext<&[u64]>> = list.iter().collect();
                    for (j, ct) in small.iter().enumerate() {
                        let lut = batch.lut_indexes[j];
                        let body = &bodies[lut * n..(lut + 1) * n];
                        let functions = FUNCTIONS[lut].len();
                        let cpu = cpu_multi_bit(&keys, &fourier, g, ct, body, functions);
                        for (i, c) in cpu.iter().enumerate() {
                            let gpu = keys.decrypt(&outs[batch.output_slots[j] + i]);
                            let expected = FUNCTIONS[lut][i](batch.values[j]);
                            assert_eq!(keys.decrypt(&c.as_view()), gpu, "{label}: input {j}");
                            assert!(keys.error(&c.as_view(), expected).abs() < bound);
                        }
                    }
                    first = Some(out);
                }
                Some(f) => assert!(f == &out, "{label}: results differ from the first run"),
            }
        }
    }
}

/// Grouping factors 2, 3 and 4 at N = 512 (several chunks, the last partial), two
/// decomposition levels, GLWE dimension 2 and the standard modulus switch, and N = 2048.
#[test]
fn emulated_multi_bit_bootstrap_matches_the_cpu_in_every_thread_order() {
    let Some(harness) = harness() else { return };
    let orders = ["forward", "reverse", "shuffled"];
    let params = insecure_parameters(48, 1, 512, 23, 1);
    for (g, chunk) in [(2, 5), (3, 16), (4, 12)] {
        check_multi_bit(harness, params, g, 5, chunk, &orders);
    }
    let mut standard = insecure_parameters(24, 2, 512, 12, 2);
    standard.modulus_switch = ModulusSwitchType::Standard;
    check_multi_bit(harness, standard, 3, 4, 3, &orders[..2]);
    check_multi_bit(
        harness,
        insecure_parameters(16, 1, 2048, 23, 1),
        4,
        3,
        3,
        &orders[..2],
    );
}

/// The passes of the bootstraps' negacyclic FFT at polynomial size `n`, as
/// `cuda/negacyclic_fft.cuh` runs them with the values per thread `R` of the
/// instantiation (`BOOTSTRAP_KERNELS(N, R, ...)` in cuda/programmable_bootstrap.cu):
/// the group sizes of the passes through shared memory, and whether the last stage
/// crosses lanes (warp shuffles: the pass before it leaves groups of 2).
fn fft_passes(n: usize) -> (Vec<usize>, bool) {
    let source = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("cuda/programmable_bootstrap.cu"),
    )
    .expect("the bootstrap kernels' source");
    let r: usize = source
        .lines()
        .filter_map(|l| l.strip_prefix("BOOTSTRAP_KERNELS("))
        .map(|args| {
            args.split(',')
                .map(|a| a.trim().parse::<usize>().unwrap_or(0))
        })
        .find_map(|mut args| (args.next() == Some(n)).then(|| args.next().unwrap_or(0)))
        .unwrap_or_else(|| panic!("no instantiation for N = {n}"));
    let (mut group, mut passes) = (n / 2, Vec::new());
    loop {
        passes.push(group);
        let stages = r.trailing_zeros().min(group.trailing_zeros());
        match group >> stages {
            2 => return (passes, true),
            next if next <= 1 => return (passes, false),
            next => group = next,
        }
    }
}

#[test]
fn the_sanitized_shapes_reach_every_fft_stage() {
    // N = 512 (R = 8) ends with a pass of two stages in registers; N = 256 (R = 4)
    // and the default N = 2048 with the stage across lanes, which N = 512 never runs.
    assert_eq!(fft_passes(512), (vec![256, 32, 4], false));
    assert_eq!(fft_passes(256), (vec![128, 32, 8], true));
    assert!(fft_passes(2048).1);
    assert!(fft_passes(sanitized_levels().polynomial_size.0).1);
}

/// The sanitized runs' shape of two decomposition levels (classical and multi-bit):
/// N = 256, whose transforms run every stage of the FFT, the cross-lane one included
/// (`small_parameters`, N = 512, runs the other shape of last pass).
fn sanitized_levels() -> ShortintParameters {
    insecure_parameters(16, 1, 256, 12, 2)
}

/// The kernels under AddressSanitizer and ThreadSanitizer: every kernel (bootstrap
/// single-block and cluster, at 1 and 2 decomposition levels; keyswitch with split key
/// rows and the reduction; linear combinations; the multi-bit key bundle and
/// accumulation, over several chunks) runs without a report, with the same results
/// as the CPU, on shapes that reach every stage of the FFT (N = 512 and 256).
fn check_sanitized(build: Build) {
    let Some(harness) = harness_of(build) else {
        return;
    };
    // Six checks, each its own harness process, at once: a sanitized run is
    // single-threaded and slow (ThreadSanitizer most of all).
    std::thread::scope(|scope| {
        scope.spawn(|| check_linear(harness));
        scope.spawn(|| crate::cuda_emulation_128::check_sanitized_128(harness));
        scope.spawn(|| check_bootstrap(harness, small_parameters(), 3, &["forward"]));
        scope.spawn(|| check_bootstrap(harness, sanitized_levels(), 2, &["reverse"]));
        scope.spawn(|| check_multi_bit(harness, sanitized_levels(), 2, 2, 3, &["reverse"]));
        scope.spawn(|| {
            let keys = HostKeys::new(small_parameters());
            let cts: Vec<LweCiphertextOwned> = (0..17)
                .map(|i| keys.ck.encrypt_with_carry(i % 16).unwrap().as_lwe().clone())
                .collect();
            check_keyswitch(harness, &keys, &cts, 132);
        });
    });
}

#[test]
fn kernels_are_clean_under_address_sanitizer() {
    check_sanitized(Build::Address);
}

#[test]
fn kernels_are_clean_under_thread_sanitizer() {
    check_sanitized(Build::Thread);
}

/// `testing/cuda-emu/planted_bugs.cpp` under each sanitizer: an out-of-bounds write to shared
/// memory and an out-of-bounds read of a device buffer are reported by
/// AddressSanitizer, a read of a neighbour's shared word without a barrier by
/// ThreadSanitizer; the same exchange with the barrier passes both.
#[test]
fn sanitizers_catch_planted_out_of_bounds_accesses_and_races() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let source = [root.join("testing/cuda-emu/planted_bugs.cpp")];
    let Some(address) = compile(Build::Address, "planted_bugs", &source) else {
        crate::skip::report_skipped(format_args!("(no C++ compiler)"));
        return;
    };
    let thread = compile(Build::Thread, "planted_bugs", &source).expect("compiler found");
    let run = |program: &Path, bug: &str| {
        let out = sanitizer_options(&mut Command::new(program))
            .arg(bug)
            .output()
            .expect("run planted_bugs");
        (
            out.status.success(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let caught = [
        (&address, "oob", "AddressSanitizer: heap-buffer-overflow"),
        (&address, "global", "AddressSanitizer: heap-buffer-overflow"),
        (&thread, "race", "ThreadSanitizer: data race"),
    ];
    for (program, bug, report) in caught {
        let (ok, stderr) = run(program, bug);
        assert!(
            !ok && stderr.contains(report),
            "{bug}: no {report:?}:\n{stderr}"
        );
        assert!(
            stderr.contains("planted_bugs.cpp"),
            "{bug}: the report names no line:\n{stderr}"
        );
    }
    for program in [&address, &thread] {
        let (ok, stderr) = run(program, "exchange");
        assert!(
            ok && !stderr.contains("Sanitizer: "),
            "the correct exchange was reported:\n{stderr}"
        );
    }
}

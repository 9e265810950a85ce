//! The batched GPU bootstrap (with the bootstrap key converted on the GPU) against
//! the CPU: every output decrypts to the CPU's result, with the same noise. Prints
//! `SKIPPED (no CUDA device)` and passes where there is no GPU; fails under
//! `GPUFHE_REQUIRE_GPU=1`.

use crate::cuda_support;

use cuda_support::*;
use gpufhe::backend::cuda::*;
use gpufhe::backend::Table;
use gpufhe::core_crypto::noise::pbs_output_variance;
use gpufhe::core_crypto::*;
use gpufhe::shortint::DEFAULT_PARAMETERS;
use gpufhe::Error;

/// Runs the batch on the GPU (CPU or GPU keyswitch first) with `kernel`; returns the
/// output list.
fn run_on_gpu(
    gpu: &CudaDevice,
    keys: &Keys,
    batch: &Batch,
    kernel: PbsKernel,
    keyswitch_on_gpu: bool,
) -> LweCiphertextListOwned {
    let p = keys.params();
    let small = if keyswitch_on_gpu {
        let big = CudaLweCiphertextList::from_cpu(gpu, &block_list(&batch.blocks)).unwrap();
        let mut small = small_zeros(gpu, &p, batch.blocks.len());
        cuda_keyswitch_lwe_ciphertext_list(&keys.ksk, &big, &mut small).unwrap();
        small
    } else {
        let switched: Vec<LweCiphertextOwned> = batch
            .blocks
            .iter()
            .map(|b| keys.cpu.keyswitch(b).unwrap())
            .collect();
        CudaLweCiphertextList::from_cpu(gpu, &lwe_list(&switched)).unwrap()
    };
    let tables = tables(&p);
    let table_refs: Vec<&Table> = tables.iter().collect();
    let luts = CudaLookupTableList::from_tables(gpu, &p, &table_refs).unwrap();
    let mut out = big_zeros(gpu, &p, batch.outputs);
    cuda_programmable_bootstrap_lwe_ciphertext_list_with(
        &keys.bsk,
        &small,
        &mut out,
        &luts,
        &batch.lut_indexes,
        &batch.output_slots,
        p.modulus_switch,
        kernel,
    )
    .unwrap();
    out.to_cpu().unwrap()
}

/// The kernels to test on this GPU: the cluster kernel needs sm_90.
fn kernels(gpu: &CudaDevice) -> Vec<PbsKernel> {
    let mut k = vec![PbsKernel::Auto, PbsKernel::SingleBlock];
    if gpu.compute_capability().0 >= 9 {
        k.push(PbsKernel::Cluster);
    }
    k
}

#[test]
fn batched_bootstrap_with_many_tables_matches_the_cpu() {
    let Some(gpu) = gpu_for_tests() else { return };
    let keys = Keys::new(&gpu, small_parameters());
    let batch = make_batch(&keys, 1000);
    let cpu_errors = {
        let out = run_on_gpu(&gpu, &keys, &batch, PbsKernel::Auto, false);
        check_outputs(&keys, &batch, &out, "auto");
        check_against_cpu(&keys, &batch, &out, 1000)
    };
    let cpu_variance = variance(&cpu_errors);
    for kernel in kernels(&gpu) {
        let out = run_on_gpu(&gpu, &keys, &batch, kernel, false);
        let errors = check_outputs(&keys, &batch, &out, &format!("{kernel:?}"));
        // Same noise as the CPU's bootstrap: ~2000 samples each, so their variances
        // agree within a few percent unless the GPU computes something else.
        let ratio = variance(&errors) / cpu_variance;
        assert!(
            (0.75..=1.33).contains(&ratio),
            "{kernel:?}: GPU/CPU noise variance ratio {ratio}"
        );
    }
}

#[test]
fn bootstrap_of_one_and_of_a_partial_batch() {
    let Some(gpu) = gpu_for_tests() else { return };
    let keys = Keys::new(&gpu, small_parameters());
    for count in [1, 3, 130] {
        let batch = make_batch(&keys, count);
        for kernel in kernels(&gpu) {
            let out = run_on_gpu(&gpu, &keys, &batch, kernel, true);
            check_outputs(&keys, &batch, &out, &format!("{kernel:?}, {count} inputs"));
        }
    }
}

/// Every polynomial size the kernels are built for (and N = 8192, which is not),
/// GLWE dimension 2, several decomposition levels and the standard modulus switch.
#[test]
fn bootstrap_shapes_and_decompositions() {
    let Some(gpu) = gpu_for_tests() else { return };
    let mut standard = small_parameters();
    standard.modulus_switch = ModulusSwitchType::Standard;
    let cases = [
        insecure_parameters(128, 2, 256, 23, 1),
        insecure_parameters(256, 1, 512, 12, 3),
        insecure_parameters(256, 2, 512, 23, 1),
        insecure_parameters(256, 1, 1024, 15, 2),
        insecure_parameters(64, 1, 4096, 23, 1),
        insecure_parameters(32, 1, 8192, 23, 1),
        standard,
    ];
    for params in cases {
        // N = 8192 is not built (every kernel of its key layout spilled registers):
        // a key of that size is a clear error.
        if params.polynomial_size.0 > 4096 {
            let host = HostKeys::new(params);
            let result = CudaFourierBootstrapKey::from_cpu(&gpu, &host.standard_bsk);
            let err = result.map(drop).unwrap_err();
            assert!(
                matches!(err, Error::InvalidParameter(_)) && err.to_string().contains("8192"),
                "N = 8192 must be a clear error: {err}"
            );
            continue;
        }
        let keys = Keys::new(&gpu, params);
        let batch = make_batch(&keys, 48);
        let what = format!(
            "N = {}, k = {}, 2^{} x {}, {:?}",
            params.polynomial_size.0,
            params.glwe_dimension.0,
            params.pbs_base_log.0,
            params.pbs_level.0,
            params.modulus_switch
        );
        let mut ran = 0;
        for kernel in kernels(&gpu) {
            let out = run_on_gpu(&gpu, &keys, &batch, kernel, false);
            check_outputs(&keys, &batch, &out, &format!("{what}, {kernel:?}"));
            ran += 1;
        }
        assert!(ran >= 1, "{what}: no kernel ran");
        let out = run_on_gpu(&gpu, &keys, &batch, PbsKernel::Auto, false);
        check_against_cpu(&keys, &batch, &out, 8);
    }
}

#[test]
fn default_parameters_batch_decrypts_like_the_cpu_with_the_expected_noise() {
    let Some(gpu) = gpu_for_tests() else { return };
    let keys = Keys::new(&gpu, DEFAULT_PARAMETERS);
    let batch = make_batch(&keys, 1024);
    let out = run_on_gpu(&gpu, &keys, &batch, PbsKernel::Auto, true);
    let errors = check_outputs(&keys, &batch, &out, "default parameters");
    check_against_cpu(&keys, &batch, &out, 96);
    let p = DEFAULT_PARAMETERS;
    let predicted = pbs_output_variance(
        &p.bootstrap_key_shape(),
        p.glwe_noise_distribution,
        keys.ck.small_lwe_secret_key().hamming_weight(),
        keys.ck.big_lwe_secret_key().hamming_weight(),
    );
    // The model's FFT term was measured on the CPU's FFT (the CPU matches the model
    // within 10 %, tests/integer/default_parameters.rs); the kernels' FFT is their own, so the
    // window is wider: it allows the FFT term (a quarter of the variance) to be off by
    // a factor up to 1.7 higher or lower, with 1024 samples' 4.4 % of sampling error.
    let ratio = variance(&errors) / predicted;
    assert!(
        (0.7..=1.2).contains(&ratio),
        "GPU bootstrap variance 2^{:.2}, formula 2^{:.2}",
        variance(&errors).log2(),
        predicted.log2()
    );
    // Single bootstraps through every kernel (the latency path).
    let one = make_batch(&keys, 1);
    for kernel in kernels(&gpu) {
        let out = run_on_gpu(&gpu, &keys, &one, kernel, true);
        check_outputs(
            &keys,
            &one,
            &out,
            &format!("default parameters, one, {kernel:?}"),
        );
    }
}

#[test]
fn invalid_bootstrap_batches_are_errors() {
    let Some(gpu) = gpu_for_tests() else { return };
    let keys = Keys::new(&gpu, small_parameters());
    let p = keys.params();
    let batch = make_batch(&keys, 4);
    let switched: Vec<LweCiphertextOwned> = batch
        .blocks
        .iter()
        .map(|b| keys.cpu.keyswitch(b).unwrap())
        .collect();
    let small = CudaLweCiphertextList::from_cpu(&gpu, &lwe_list(&switched)).unwrap();
    let big = CudaLweCiphertextList::from_cpu(&gpu, &block_list(&batch.blocks)).unwrap();
    let tables = tables(&p);
    let refs: Vec<&Table> = tables.iter().collect();
    let luts = CudaLookupTableList::from_tables(&gpu, &p, &refs).unwrap();
    assert_eq!(luts.function_counts(), &[1, 1, 2, 4]);
    let big_size = p.big_lwe_dimension().to_lwe_size();
    let mut out = big_zeros(&gpu, &p, 8);
    let ms = p.modulus_switch;
    let bsk = &keys.bsk;
    let run = |input: &CudaLweCiphertextList,
               out: &mut CudaLweCiphertextList,
               luts: &CudaLookupTableList,
               l: &[usize],
               s: &[usize]| {
        cuda_programmable_bootstrap_lwe_ciphertext_list(bsk, input, out, luts, l, s, ms)
    };
    // Inputs under the big key.
    let err = run(&big, &mut out, &luts, &[0; 4], &[0, 1, 2, 3]).unwrap_err();
    assert!(matches!(err, Error::DimensionMismatch { .. }), "{err}");
    // Outputs of the wrong size.
    let mut wrong =
        CudaLweCiphertextList::new_zero(&gpu, small.lwe_size(), LweCiphertextCount(8)).unwrap();
    assert!(run(&small, &mut wrong, &luts, &[0; 4], &[0, 1, 2, 3]).is_err());
    // Index lists of the wrong length, a table out of range, slots out of range or
    // shared by two bootstraps.
    assert!(run(&small, &mut out, &luts, &[0; 3], &[0, 1, 2, 3]).is_err());
    assert!(run(&small, &mut out, &luts, &[0; 4], &[0, 1, 2]).is_err());
    assert!(run(&small, &mut out, &luts, &[0, 1, 2, 4], &[0, 1, 2, 4]).is_err());
    assert!(run(&small, &mut out, &luts, &[0, 0, 0, 3], &[0, 1, 2, 5]).is_err());
    assert!(run(&small, &mut out, &luts, &[0, 0, 2, 0], &[0, 1, 1, 3]).is_err());
    assert!(run(&small, &mut out, &luts, &[0, 0, 0, 0], &[0, 1, 7, 8]).is_err());
    // Tables of another polynomial size.
    let other = insecure_parameters(256, 1, 1024, 23, 1);
    let other_table = Table::new(&other, |x| x).unwrap();
    let other_luts = CudaLookupTableList::from_tables(&gpu, &other, &[&other_table]).unwrap();
    assert!(run(&small, &mut out, &other_luts, &[0; 4], &[0, 1, 2, 3]).is_err());
    assert_eq!(
        out.to_cpu().unwrap().as_slice(),
        vec![0u64; 8 * big_size.0].as_slice(),
        "a failed call must not touch its output"
    );
    // Tables that do not belong to the parameters, and empty lists.
    let mut wide = p;
    wide.carry_modulus = 8;
    let wide_table = Table::new(&wide, |x| x).unwrap();
    assert!(CudaLookupTableList::from_tables(&gpu, &p, &[&wide_table]).is_err());
    assert!(CudaLookupTableList::from_tables(&gpu, &p, &[]).is_err());
    assert!(CudaLookupTableList::from_lookup_tables(&gpu, &[]).is_err());
    // A valid call after all that, with single-function shortint tables.
    let lut = keys.cpu.generate_lookup_table(|x| (x + 1) % 16).unwrap();
    let single = CudaLookupTableList::from_lookup_tables(&gpu, &[&lut]).unwrap();
    run(&small, &mut out, &single, &[0; 4], &[7, 6, 5, 4]).unwrap();
    let got = out.to_cpu().unwrap();
    let got: Vec<LweCiphertext<&[u64]>> = got.iter().collect();
    for (j, &x) in batch.values.iter().enumerate() {
        assert_eq!(keys.decrypt(&got[7 - j]), (x + 1) % 16, "input {j}");
    }
}

#[test]
fn lists_on_another_gpu_are_errors() {
    let Some(gpu) = gpu_for_tests() else { return };
    if cuda_device_count().unwrap_or(0) < 2 {
        crate::skip::report_skipped(format_args!("(needs two GPUs)"));
        return;
    }
    let other = CudaDevice::new(1).unwrap();
    let keys = Keys::new(&gpu, small_parameters());
    let p = keys.params();
    let block = keys.ck.encrypt(1).unwrap();
    let big = CudaLweCiphertextList::from_cpu(&other, &block_list(&[block])).unwrap();
    let mut small = small_zeros(&gpu, &p, 1);
    let err = cuda_keyswitch_lwe_ciphertext_list(&keys.ksk, &big, &mut small).unwrap_err();
    assert!(
        matches!(
            err,
            Error::DimensionMismatch {
                expected: 0,
                got: 1,
                ..
            }
        ),
        "{err}"
    );
    let luts =
        CudaLookupTableList::from_tables(&other, &p, &[&Table::new(&p, |x| x).unwrap()]).unwrap();
    let mut out = big_zeros(&gpu, &p, 1);
    let err = bootstrap_one(&keys.bsk, &small, &mut out, &luts, &p).unwrap_err();
    assert!(matches!(err, Error::DimensionMismatch { .. }), "{err}");
}

/// A multi-bit bootstrap key of grouping factor `g` for `keys`, on the GPU.
/// The multi-bit bootstrap (g = 4 and 3) with every kernel, in one chunk and in
/// several (the last partial): every output decrypts right, the spare slot stays
/// untouched.
#[test]
fn multi_bit_bootstrap_decrypts_right() {
    let Some(gpu) = gpu_for_tests() else { return };
    let keys = HostKeys::new(insecure_parameters(48, 1, 512, 23, 1));
    let p = keys.params();
    let batch = make_batch(&keys, 6);
    let switched: Vec<LweCiphertextOwned> = batch
        .blocks
        .iter()
        .map(|b| keys.cpu.keyswitch(b).unwrap())
        .collect();
    let small = CudaLweCiphertextList::from_cpu(&gpu, &lwe_list(&switched)).unwrap();
    let tables = tables(&p);
    let refs: Vec<&Table> = tables.iter().collect();
    let luts = CudaLookupTableList::from_tables(&gpu, &p, &refs).unwrap();
    for g in [4, 3] {
        let bsk = multi_bit_key(&gpu, &keys, g);
        for kernel in kernels(&gpu) {
            for chunk in [usize::MAX, 5] {
                let mut out = big_zeros(&gpu, &p, batch.outputs);
                cuda_multi_bit_programmable_bootstrap_lwe_ciphertext_list_with(
                    &bsk,
                    g,
                    &small,
                    &mut out,
                    &luts,
                    &batch.lut_indexes,
                    &batch.output_slots,
                    p.modulus_switch,
                    kernel,
                    chunk,
                )
                .unwrap();
                let what = format!("multi-bit g = {g}, {kernel:?}, chunk {chunk}");
                check_outputs(&keys, &batch, &out.to_cpu().unwrap(), &what);
            }
        }
    }
}

#[test]
fn invalid_multi_bit_bootstraps_are_errors() {
    let Some(gpu) = gpu_for_tests() else { return };
    let keys = Keys::new(&gpu, insecure_parameters(48, 1, 512, 23, 1));
    let p = keys.params();
    let batch = make_batch(&keys, 4);
    let switched: Vec<LweCiphertextOwned> = batch
        .blocks
        .iter()
        .map(|b| keys.cpu.keyswitch(b).unwrap())
        .collect();
    let small = CudaLweCiphertextList::from_cpu(&gpu, &lwe_list(&switched)).unwrap();
    let big = CudaLweCiphertextList::from_cpu(&gpu, &block_list(&batch.blocks)).unwrap();
    let luts =
        CudaLookupTableList::from_tables(&gpu, &p, &[&Table::new(&p, |x| x).unwrap()]).unwrap();
    let bsk = multi_bit_key(&gpu, &keys, 4);
    let mut out = big_zeros(&gpu, &p, 5);
    let ms = p.modulus_switch;
    let slots = [0, 1, 2, 3];
    let run = |bsk: &CudaFourierBootstrapKey,
               g: usize,
               input: &CudaLweCiphertextList,
               out: &mut CudaLweCiphertextList,
               l: &[usize],
               s: &[usize]| {
        cuda_multi_bit_programmable_bootstrap_lwe_ciphertext_list(
            bsk, g, input, out, &luts, l, s, ms,
        )
    };
    // Grouping factors out of range, not dividing n, or not the key's.
    for g in [0, 5, 7, 3, 2] {
        assert!(
            run(&bsk, g, &small, &mut out, &[0; 4], &slots).is_err(),
            "g = {g}"
        );
    }
    // The classical key, inputs under the big key.
    let err = run(&keys.bsk, 4, &small, &mut out, &[0; 4], &slots).unwrap_err();
    assert!(matches!(err, Error::DimensionMismatch { .. }), "{err}");
    assert!(run(&bsk, 4, &big, &mut out, &[0; 4], &slots).is_err());
    // Outputs of the wrong size, index lists of the wrong length, a table or slots
    // out of range, shared slots, no group per chunk.
    let mut wrong =
        CudaLweCiphertextList::new_zero(&gpu, small.lwe_size(), LweCiphertextCount(5)).unwrap();
    assert!(run(&bsk, 4, &small, &mut wrong, &[0; 4], &slots).is_err());
    assert!(run(&bsk, 4, &small, &mut out, &[0; 3], &slots).is_err());
    assert!(run(&bsk, 4, &small, &mut out, &[0; 4], &[0, 1, 2]).is_err());
    assert!(run(&bsk, 4, &small, &mut out, &[0, 0, 0, 1], &slots).is_err());
    assert!(run(&bsk, 4, &small, &mut out, &[0; 4], &[0, 1, 2, 5]).is_err());
    assert!(run(&bsk, 4, &small, &mut out, &[0; 4], &[0, 1, 1, 3]).is_err());
    assert!(
        cuda_multi_bit_programmable_bootstrap_lwe_ciphertext_list_with(
            &bsk,
            4,
            &small,
            &mut out,
            &luts,
            &[0; 4],
            &slots,
            ms,
            PbsKernel::Auto,
            0
        )
        .is_err()
    );
    assert_eq!(
        out.to_cpu().unwrap().as_slice(),
        vec![0u64; 5 * p.big_lwe_dimension().to_lwe_size().0].as_slice(),
        "a failed call must not touch its output"
    );
    // A valid call after all that.
    run(&bsk, 4, &small, &mut out, &[0; 4], &[4, 3, 2, 1]).unwrap();
    let got = out.to_cpu().unwrap();
    let got: Vec<LweCiphertext<&[u64]>> = got.iter().collect();
    for (j, &x) in batch.values.iter().enumerate() {
        assert_eq!(keys.decrypt(&got[4 - j]), x, "input {j}");
    }
}

//! The `kernels` step of `gpu_first_look` (examples/gpu_first_look.rs): the two
//! bootstrap kernels side by side on one batch.

use super::{err, f, gpu, parameters, result, timed, Options, Outcome};
use gpufhe::backend::cuda::*;
use gpufhe::backend::Table;
use gpufhe::core_crypto::{decrypt_lwe_ciphertext, LweCiphertextCount, LweCiphertextList};
use gpufhe::scheduler::{measure_gpu, CalibrationOptions};
use gpufhe::shortint::{ClientKey, CompressedServerKey};
use std::time::Duration;

/// The two bootstrap kernels on the same batch (one keyswitch, then each kernel's
/// bootstraps of it), PBS/s and the values checked, then what `Auto` takes for such
/// a batch once the calibration has timed them (`measure_gpu`).
pub fn kernels(o: &Options) -> Outcome {
    let device = gpu()?;
    let budget = Duration::from_secs_f64(o.seconds / o.sets.len() as f64 / 3.0);
    for set in &o.sets {
        let p = parameters(set, o.small);
        let ck = ClientKey::new(p).map_err(err)?;
        let compressed = CompressedServerKey::new(&ck).map_err(err)?;
        let bsk =
            CudaFourierBootstrapKey::from_cpu(&device, &compressed.bootstrap_key().decompress())
                .map_err(err)?;
        let ksk = CudaKeyswitchKey::from_cpu(&device, &compressed.keyswitch_key().decompress())
            .map_err(err)?;
        let count = o.count;
        let values: Vec<u64> = (0..count as u64).map(|i| i % 16).collect();
        let mut coefficients = Vec::new();
        for &v in &values {
            coefficients
                .extend_from_slice(ck.encrypt_with_carry(v).map_err(err)?.as_lwe().as_slice());
        }
        let big_size = p.big_lwe_dimension().to_lwe_size();
        let big = LweCiphertextList::from_container(coefficients, big_size).map_err(err)?;
        let big = CudaLweCiphertextList::from_cpu(&device, &big).map_err(err)?;
        let small_size = p.lwe_dimension.to_lwe_size();
        let mut small =
            CudaLweCiphertextList::new_zero(&device, small_size, LweCiphertextCount(count))
                .map_err(err)?;
        cuda_keyswitch_lwe_ciphertext_list(&ksk, &big, &mut small).map_err(err)?;
        let table = Table::new(&p, f).map_err(err)?;
        let luts = CudaLookupTableList::from_tables(&device, &p, &[&table]).map_err(err)?;
        let (lut_indexes, slots): (Vec<usize>, Vec<usize>) = (vec![0; count], (0..count).collect());
        let mut out = CudaLweCiphertextList::new_zero(&device, big_size, LweCiphertextCount(count))
            .map_err(err)?;
        for (name, kernel) in [
            ("single_block", PbsKernel::SingleBlock),
            ("cluster", PbsKernel::Cluster),
        ] {
            let mut run = || {
                match p.pbs_kind.grouping_factor() {
                    None => cuda_programmable_bootstrap_lwe_ciphertext_list_with(
                        &bsk,
                        &small,
                        &mut out,
                        &luts,
                        &lut_indexes,
                        &slots,
                        p.modulus_switch,
                        kernel,
                    ),
                    Some(g) => cuda_multi_bit_programmable_bootstrap_lwe_ciphertext_list_with(
                        &bsk,
                        g,
                        &small,
                        &mut out,
                        &luts,
                        &lut_indexes,
                        &slots,
                        p.modulus_switch,
                        kernel,
                        usize::MAX,
                    ),
                }
                .map_err(err)?;
                device.synchronize().map_err(err)
            };
            // A kernel that cannot run here (no clusters before sm_90) says why.
            if let Err(why) = run() {
                result(
                    "kernels",
                    &[
                        ("params", set.to_string()),
                        ("kernel", name.into()),
                        ("batch", count.to_string()),
                        ("unavailable", why),
                    ],
                );
                continue;
            }
            let seconds = timed(if o.small { 1 } else { 3 }, budget, &mut run)?;
            let outputs = out.to_cpu().map_err(err)?;
            let mut wrong = 0;
            for (ct, &v) in outputs.iter().zip(&values) {
                let phase = decrypt_lwe_ciphertext(ck.big_lwe_secret_key(), &ct).map_err(err)?;
                let decoded = phase.wrapping_add(p.delta() / 2) / p.delta() % 32;
                wrong += usize::from(decoded != f(v));
            }
            result(
                "kernels",
                &[
                    ("params", set.to_string()),
                    ("kernel", name.into()),
                    ("batch", count.to_string()),
                    ("median_ms", format!("{:.4}", seconds * 1e3)),
                    ("per_second", format!("{:.1}", count as f64 / seconds)),
                    ("wrong", wrong.to_string()),
                ],
            );
            if wrong > 0 {
                return Err(format!("{set}, {name}: {wrong} wrong values"));
            }
        }
        // The calibration times both kernels on its largest batch when it is larger
        // than one wave; Auto takes the faster for such batches from then on.
        let backend = CudaBackend::new(&device, &compressed).map_err(err)?;
        let options = CalibrationOptions {
            gpu_batch_sizes: vec![count],
            repetitions: if o.small { 1 } else { 3 },
            ..CalibrationOptions::default()
        };
        measure_gpu(&backend, &options).map_err(err)?;
        let chosen = match backend.measured_bootstrap_kernel() {
            Some(PbsKernel::Cluster) => "cluster",
            Some(_) => "single_block",
            None => "not_measured",
        };
        result(
            "kernels",
            &[
                ("params", set.to_string()),
                ("kernel", "auto_after_calibration".into()),
                ("batch", count.to_string()),
                ("chosen", chosen.into()),
            ],
        );
    }
    Ok(())
}

//! The `squash` step of `gpu_first_look` (examples/gpu_first_look.rs): noise
//! squashing on a GPU key (the 128-bit bootstrap kernel,
//! `cuda/noise_squashing_bootstrap.cu`) against the clear values and the CPU key.

use super::{err, parameters, result, Options, Outcome};
use gpufhe::prelude::*;
use gpufhe::shortint::{
    NoiseSquashingParameters, NOISE_SQUASHING_PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2,
    NOISE_SQUASHING_PARAM_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128,
};
use gpufhe::{set_server_key, ConfigBuilder, FheBool, FheUint64, GpuIndex};
use std::time::Instant;

/// The noise-squashing parameters of the classical set, secure or small.
fn squashing_parameters(small: bool) -> NoiseSquashingParameters {
    if small {
        NOISE_SQUASHING_PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2
    } else {
        NOISE_SQUASHING_PARAM_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128
    }
}

/// Squashes an FheUint64 and an FheBool on GPU 0 (the first squash converts the
/// squashing key to the GPU: the FheUint64 is squashed again alone, but for the
/// small parameters), decrypts them, and squashes the same
/// values with the CPU key: every value must be the clear one. Classical keys only
/// (multi-bit squashing keys are not generated yet).
pub fn squash(o: &Options) -> Outcome {
    let config = ConfigBuilder::default()
        .with_insecure_custom_parameters(parameters("classical", o.small))
        .map_err(err)?
        .enable_noise_squashing(squashing_parameters(o.small));
    let client_key = gpufhe::ClientKey::generate(config);
    let compressed = gpufhe::CompressedServerKey::new(&client_key);
    let gpu_key = compressed
        .try_decompress_to_specific_gpu(GpuIndex::new(0))
        .map_err(err)?;
    let cpu_key = compressed.decompress();
    let clear = 0xfedc_ba98_7654_3210u64;
    let value = FheUint64::encrypt(clear, &client_key);
    let flag = FheBool::encrypt(true, &client_key);
    let mut failures = 0;
    // The emulated kernels of the fake driver's dry run: the first squash only.
    let rounds = if o.small { 1 } else { 2 };
    for (what, first) in [
        ("FheUint64 (with the key's conversion)", true),
        ("FheUint64", false),
    ]
    .into_iter()
    .take(rounds)
    {
        set_server_key(gpu_key.clone());
        let start = Instant::now();
        let squashed = value.squash_noise().map_err(err)?;
        let seconds = start.elapsed().as_secs_f64();
        let on_gpu: u64 = squashed.decrypt(&client_key);
        let on_cpu = if first {
            set_server_key(cpu_key.clone());
            let back: u64 = value.squash_noise().map_err(err)?.decrypt(&client_key);
            back.to_string()
        } else {
            "-".into()
        };
        let ok = on_gpu == clear && (!first || on_cpu == clear.to_string());
        failures += usize::from(!ok);
        result(
            "squash",
            &[
                ("what", what.to_string()),
                ("ok", ok.to_string()),
                ("gpu", on_gpu.to_string()),
                ("cpu", on_cpu),
                ("seconds", format!("{seconds:.4}")),
            ],
        );
    }
    set_server_key(gpu_key);
    let start = Instant::now();
    let squashed = flag.squash_noise().map_err(err)?;
    let seconds = start.elapsed().as_secs_f64();
    let on_gpu: bool = squashed.decrypt(&client_key);
    failures += usize::from(!on_gpu);
    result(
        "squash",
        &[
            ("what", "FheBool".to_string()),
            ("ok", on_gpu.to_string()),
            ("gpu", on_gpu.to_string()),
            ("cpu", "-".to_string()),
            ("seconds", format!("{seconds:.4}")),
        ],
    );
    if failures > 0 {
        return Err(format!("{failures} squashed values decrypted wrong"));
    }
    Ok(())
}

//! The long-running check behind the failure probability, on the default
//! parameters: every bootstrap's input is the sum of `max_noise_level` (5) outputs
//! of earlier bootstraps, the noisiest input a circuit may bootstrap; each result is
//! decrypted and compared with the clear result (a wrong value is a failure), and
//! the variance of the output error is measured and compared with the noise model.
//! Bootstraps are batched on every core. Not run in CI: a million bootstraps take
//! about two hours on two cores.
//!
//! ```text
//! cargo run --release --example failure_rate             # 10^6 bootstraps
//! cargo run --release --example failure_rate -- 20000    # a quick run
//! ```
//!
//! With zero failures in `m` bootstraps the failure probability is below `3 / m` at
//! 95 % confidence (the "rule of three"); the parameters claim 2^-129.6 per
//! bootstrap, so any failure at all is a bug.

use gpufhe::core_crypto::decrypt_lwe_ciphertext;
use gpufhe::core_crypto::noise::pbs_output_variance;
use gpufhe::shortint::{Ciphertext, ClientKey, CompressedServerKey, DEFAULT_PARAMETERS};
use std::time::Instant;

/// Bootstraps per batch.
const BATCH: usize = 512;

fn main() -> Result<(), gpufhe::Error> {
    let total: usize = match std::env::args().nth(1) {
        Some(arg) => arg.parse().map_err(|_| {
            gpufhe::Error::InvalidParameter(format!("the count {arg:?} is not a number"))
        })?,
        None => 1_000_000,
    };
    let p = DEFAULT_PARAMETERS;
    let client_key = ClientKey::new(p)?;
    let server_key = CompressedServerKey::new(&client_key)?.decompress()?;
    // Outputs hold at most 3, so a sum of 5 fits in the 16 values of a block.
    let f = |x: u64| (5 * x + 3) % p.message_modulus;
    let lut = server_key.generate_lookup_table(f)?;
    let delta = p.delta();
    let fan_in = p.max_noise_level as usize;
    // The first inputs' addends: fresh encryptions; then the previous outputs.
    let mut pool: Vec<(u64, Ciphertext)> = (0..BATCH as u64)
        .map(|i| {
            Ok((
                i % p.message_modulus,
                client_key.encrypt(i % p.message_modulus)?,
            ))
        })
        .collect::<Result<_, gpufhe::Error>>()?;
    let (mut failures, mut done) = (0usize, 0usize);
    let (mut sum, mut sum_sq) = (0f64, 0f64);
    let started = Instant::now();
    while done < total {
        let count = BATCH.min(total - done);
        let mut inputs = Vec::with_capacity(count);
        let mut cts = Vec::with_capacity(count);
        for j in 0..count {
            let (mut value, mut ct) = pool[j].clone();
            for t in 1..fan_in {
                let (v, addend) = &pool[(j + t) % pool.len()];
                server_key.unchecked_add_assign(&mut ct, addend)?;
                value += v;
            }
            inputs.push(value);
            cts.push(ct);
        }
        let outputs = server_key.apply_lookup_table_batch(&cts, &vec![&lut; count])?;
        for (&x, out) in inputs.iter().zip(&outputs) {
            let phase = decrypt_lwe_ciphertext(client_key.big_lwe_secret_key(), out.as_lwe())?;
            let err = phase.wrapping_sub(f(x) * delta) as i64 as f64;
            sum += err;
            sum_sq += err * err;
            if client_key.decrypt_message_and_carry(out)? != f(x) {
                failures += 1;
            }
        }
        pool = inputs.iter().map(|&x| f(x)).zip(outputs).collect();
        done += count;
        if done % (BATCH * 20) == 0 || done == total {
            eprintln!(
                "{done} bootstraps, {failures} failures, {:.1} bootstraps/s",
                done as f64 / started.elapsed().as_secs_f64()
            );
        }
    }
    let n = done as f64;
    let measured = (sum_sq - sum * sum / n) / (n - 1.0);
    let predicted = pbs_output_variance(
        &p.bootstrap_key_shape(),
        p.glwe_noise_distribution,
        client_key.small_lwe_secret_key().hamming_weight(),
        client_key.big_lwe_secret_key().hamming_weight(),
    );
    println!("bootstraps:          {done} (inputs at noise level {fan_in})");
    println!("decryption failures: {failures}");
    println!(
        "output error:        mean {:.3e}, variance 2^{:.3} (model 2^{:.3}, ratio {:.3})",
        sum / n,
        measured.log2(),
        predicted.log2(),
        measured / predicted
    );
    println!(
        "failure probability: < {:.2e} per bootstrap at 95 % confidence ({} s)",
        3.0 / n,
        started.elapsed().as_secs()
    );
    if failures > 0 {
        return Err(gpufhe::Error::InvalidParameter(format!(
            "{failures} decryption failures in {done} bootstraps"
        )));
    }
    Ok(())
}

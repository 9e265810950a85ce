//! Encrypts every block value, bootstraps it through a lookup table and decrypts,
//! on the default (128-bit secure) parameters, printing timings.
//!
//! Run with `cargo run --release --example bootstrap_lut`.

use gpufhe::shortint::{ClientKey, CompressedServerKey, DEFAULT_PARAMETERS};
use std::time::Instant;

fn main() -> Result<(), gpufhe::Error> {
    let params = DEFAULT_PARAMETERS;
    println!(
        "parameters: n = {}, N = {}, {} message values x {} carry values, p_fail = 2^{:.1}",
        params.lwe_dimension.0,
        params.polynomial_size.0,
        params.message_modulus,
        params.carry_modulus,
        params.log2_p_fail
    );

    let t = Instant::now();
    let client_key = ClientKey::new(params)?;
    let compressed = CompressedServerKey::new(&client_key)?;
    println!("key generation (compressed):  {:>9.1} ms", ms(t));
    let t = Instant::now();
    let server_key = compressed.decompress()?;
    println!("decompression + Fourier BSK:  {:>9.1} ms", ms(t));

    // A non-linear function of the whole block: x -> x^2 + 1 mod 16.
    let f = |x: u64| (x * x + 1) % 16;
    let lut = server_key.generate_lookup_table(f)?;

    let mut total = 0.0;
    for x in 0..params.total_modulus() {
        let ct = client_key.encrypt_with_carry(x)?;
        let t = Instant::now();
        let out = server_key.apply_lookup_table(&ct, &lut)?;
        let elapsed = ms(t);
        total += elapsed;
        let got = client_key.decrypt_message_and_carry(&out)?;
        println!("f({x:>2}) = {got:>2}   (keyswitch + bootstrap {elapsed:.2} ms)");
        assert_eq!(got, f(x), "wrong result for {x}");
    }
    println!(
        "mean keyswitch + bootstrap: {:.2} ms (single thread)",
        total / params.total_modulus() as f64
    );
    Ok(())
}

fn ms(t: Instant) -> f64 {
    t.elapsed().as_secs_f64() * 1e3
}

//! The high-level API end to end on the default (128-bit secure) parameters: keys,
//! a compressed server key sent through bytes, encrypted 8- and 64-bit arithmetic,
//! comparisons and selection, division, bit counts and a batch, printing timings and
//! bootstrap counts (and, for the 64-bit division, the counts of its circuit without
//! running it: a minute or more on two cores).
//!
//! Run with `cargo run --release --example integers`.

use gpufhe::backend::BlockInfo;
use gpufhe::integer::{div_rem, Circuit};
use gpufhe::prelude::*;
use gpufhe::serialization::{safe_deserialize_conformant, safe_serialize};
use gpufhe::shortint::DEFAULT_PARAMETERS;
use gpufhe::{
    set_server_key, BinaryOp, ClientKey, CompressedServerKey, ConfigBuilder, FheBool, FheUint16,
    FheUint64, FheUint8, ServerKey,
};
use std::time::Instant;

fn main() -> Result<(), gpufhe::Error> {
    // Client side: keys, and the compressed server key as bytes.
    let t = Instant::now();
    let client_key = ClientKey::try_generate(ConfigBuilder::default())?;
    let compressed = CompressedServerKey::try_new(&client_key)?;
    let mut bytes = Vec::new();
    safe_serialize(&compressed, &mut bytes, 1 << 30)?;
    println!(
        "keys: {:.1} s, compressed server key: {:.1} MB",
        t.elapsed().as_secs_f64(),
        bytes.len() as f64 / 1e6
    );

    // Server side: read the key (checked against the client's key), decompress it.
    let compressed: CompressedServerKey =
        safe_deserialize_conformant(bytes.as_slice(), 1 << 30, &(&client_key).into())?;
    let server_key: ServerKey = compressed.decompress();
    set_server_key(server_key.clone());

    let a = FheUint8::try_encrypt(200u8, &client_key)?;
    let b = FheUint8::try_encrypt(100u8, &client_key)?;
    let timed = |what: &str, f: &dyn Fn() -> gpufhe::Result<()>| {
        let (pbs, t) = (server_key.pbs_count(), Instant::now());
        let result = f();
        println!(
            "{what:<28} {:>8.1} ms  {:>5} bootstraps",
            t.elapsed().as_secs_f64() * 1e3,
            server_key.pbs_count() - pbs
        );
        result
    };

    timed("FheUint8 a + b", &|| {
        let sum: u8 = a.try_add(&b)?.try_decrypt(&client_key)?;
        assert_eq!(sum, 200u8.wrapping_add(100));
        Ok(())
    })?;
    timed("FheUint8 max(a, b) - 7", &|| {
        let m = a.try_max(&b)?.try_sub(7u8)?;
        assert_eq!(FheTryDecrypt::<u8>::try_decrypt(&m, &client_key)?, 193);
        Ok(())
    })?;
    timed("FheUint8 a > b ? a : b", &|| {
        let gt: FheBool = a.try_gt(&b)?;
        let pick = gt.try_if_then_else(&a, &b)?;
        assert_eq!(FheTryDecrypt::<u8>::try_decrypt(&pick, &client_key)?, 200);
        Ok(())
    })?;

    timed("FheUint8 a / b, a % b", &|| {
        let (q, r) = a.try_div_rem(&b)?;
        let (q, r): (u8, u8) = (q.try_decrypt(&client_key)?, r.try_decrypt(&client_key)?);
        assert_eq!((q, r), (2, 0));
        Ok(())
    })?;
    timed("FheUint16 c / d, c % d", &|| {
        let c = FheUint16::try_encrypt(54321u16, &client_key)?;
        let d = FheUint16::try_encrypt(123u16, &client_key)?;
        let (q, r) = c.try_div_rem(&d)?;
        let (q, r): (u16, u16) = (q.try_decrypt(&client_key)?, r.try_decrypt(&client_key)?);
        assert_eq!((q, r), (54321 / 123, 54321 % 123));
        Ok(())
    })?;

    let x = FheUint64::try_encrypt(u64::MAX - 5, &client_key)?;
    let y = FheUint64::try_encrypt(1u64 << 40, &client_key)?;
    timed("FheUint64 x + y", &|| {
        let sum: u64 = x.try_add(&y)?.try_decrypt(&client_key)?;
        assert_eq!(sum, (u64::MAX - 5).wrapping_add(1 << 40));
        Ok(())
    })?;
    timed("FheUint64 x == y", &|| {
        assert!(!x.try_eq(&y)?.try_decrypt(&client_key)?);
        Ok(())
    })?;

    timed("FheUint64 x.count_ones()", &|| {
        let ones: u32 = x.try_count_ones()?.try_decrypt(&client_key)?;
        assert_eq!(ones, (u64::MAX - 5).count_ones());
        Ok(())
    })?;
    timed("FheUint64 y.leading_zeros()", &|| {
        let zeros: u32 = y.try_leading_zeros()?.try_decrypt(&client_key)?;
        assert_eq!(zeros, (1u64 << 40).leading_zeros());
        Ok(())
    })?;
    // What a 64-bit division by an encrypted value costs, from its circuit alone.
    for (device, parallelism) in [("CPU", 2), ("GPU", 4096)] {
        let mut c = Circuit::new(DEFAULT_PARAMETERS).with_parallelism(parallelism);
        let fresh = BlockInfo {
            degree: 3,
            noise_level: 1,
        };
        let n = c.add_input(&[fresh; 32])?;
        let d = c.add_input(&[fresh; 32])?;
        let (q, r) = div_rem(&mut c, &n, &d)?;
        c.add_output(&q);
        c.add_output(&r);
        let stats = c.stats();
        println!(
            "FheUint64 x / y, x % y ({device} circuit, not run): {} bootstraps in {} layers",
            stats.bootstraps, stats.depth
        );
    }

    // A batch of 16 additions: one circuit, as many sequential layers as one.
    let lhs: Vec<FheUint8> = (0..16u8)
        .map(|i| FheUint8::try_encrypt(i * 15, &client_key))
        .collect::<Result<_, _>>()?;
    timed("batch of 16 FheUint8 a + 9", &|| {
        let out = FheUint8::batch(BinaryOp::Add, &lhs, [9u8; 16])?;
        for (i, v) in out.iter().enumerate() {
            let clear: u8 = v.try_decrypt(&client_key)?;
            assert_eq!(clear, (i as u8 * 15).wrapping_add(9));
        }
        Ok(())
    })?;
    let stats = server_key.stats();
    println!(
        "total: {} circuits, {} bootstraps in {} sequential layers",
        stats.circuits, stats.bootstraps, stats.bootstrap_layers
    );
    Ok(())
}

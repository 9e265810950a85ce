//! Reading TFHE-rs's data: one `CompressedServerKey` of TFHE-rs's default
//! configuration (made by TFHE-rs, about 60 MB), read from its bytes and
//! decompressed, by TFHE-rs and by gpufhe, same machine, same thread count, one run:
//! `compare/tfhers/read_and_decompress/{gpufhe,tfhe}`; and the decompressed key
//! written in TFHE-rs's format by each (`compare/tfhers/write_server_key/*`).
//!
//!     cd compare && RAYON_NUM_THREADS=2 cargo bench --bench tfhers_keys
//!
//! Before timing, each library's decompressed key computes 200 + 99 on values
//! encrypted by TFHE-rs's client key, and decrypts to 43.

use criterion::{criterion_group, criterion_main, Criterion};
use std::hint::black_box;
use tfhe::prelude::{FheDecrypt as _, FheEncrypt as _};

const LIMIT: u64 = 1 << 32;

fn bench(c: &mut Criterion) {
    let config = tfhe::ConfigBuilder::default().build();
    let client_key = tfhe::ClientKey::generate(config);
    let mut bytes = Vec::new();
    tfhe::safe_serialization::safe_serialize(
        &tfhe::CompressedServerKey::new(&client_key),
        &mut bytes,
        LIMIT,
    )
    .unwrap();
    let (a, b) = (
        tfhe::FheUint8::encrypt(200u8, &client_key),
        tfhe::FheUint8::encrypt(99u8, &client_key),
    );
    // TFHE-rs's own key.
    let tfhe_key = tfhe::safe_serialization::safe_deserialize::<tfhe::CompressedServerKey>(
        bytes.as_slice(),
        LIMIT,
    )
    .unwrap()
    .decompress();
    tfhe::set_server_key(tfhe_key.clone());
    let clear: u8 = (&a + &b).decrypt(&client_key);
    assert_eq!(clear, 43);
    // The same bytes in gpufhe, on TFHE-rs's values.
    let gpufhe_key: gpufhe::CompressedServerKey =
        gpufhe::safe_serialization::safe_deserialize(bytes.as_slice(), LIMIT).unwrap();
    let gpufhe_key = gpufhe_key.decompress();
    let convert = |x: &tfhe::FheUint8| {
        let mut v = Vec::new();
        tfhe::safe_serialization::safe_serialize(x, &mut v, LIMIT).unwrap();
        gpufhe::safe_serialization::safe_deserialize::<gpufhe::FheUint8>(v.as_slice(), LIMIT)
            .unwrap()
    };
    gpufhe::set_server_key(gpufhe_key.clone());
    let sum = convert(&a) + convert(&b);
    let mut v = Vec::new();
    gpufhe::safe_serialization::safe_serialize(&sum, &mut v, LIMIT).unwrap();
    let sum: tfhe::FheUint8 =
        tfhe::safe_serialization::safe_deserialize(v.as_slice(), LIMIT).unwrap();
    let clear: u8 = sum.decrypt(&client_key);
    assert_eq!(clear, 43);

    let mut g = c.benchmark_group("compare/tfhers");
    g.sample_size(10);
    g.bench_function("read_and_decompress/gpufhe", |bench| {
        bench.iter(|| {
            let key: gpufhe::CompressedServerKey =
                gpufhe::safe_serialization::safe_deserialize(black_box(bytes.as_slice()), LIMIT)
                    .unwrap();
            key.decompress()
        })
    });
    g.bench_function("read_and_decompress/tfhe", |bench| {
        bench.iter(|| {
            tfhe::safe_serialization::safe_deserialize::<tfhe::CompressedServerKey>(
                black_box(bytes.as_slice()),
                LIMIT,
            )
            .unwrap()
            .decompress()
        })
    });
    g.bench_function("write_server_key/gpufhe", |bench| {
        bench.iter(|| {
            let mut out = Vec::new();
            gpufhe::safe_serialization::safe_serialize(&gpufhe_key, &mut out, LIMIT).unwrap();
            out
        })
    });
    g.bench_function("write_server_key/tfhe", |bench| {
        bench.iter(|| {
            let mut out = Vec::new();
            tfhe::safe_serialization::safe_serialize(&tfhe_key, &mut out, LIMIT).unwrap();
            out
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);

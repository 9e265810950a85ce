//! Sizes of public-key encryption, gpufhe against TFHE-rs, each serialized with its
//! library's safe serialization on its default parameters: the compact public key,
//! its compressed form and a compact list of 128 FheUint64. Sizes, not times: they
//! do not depend on the machine.
//!
//!     cd compare && cargo run --release --example public_key_sizes

fn main() {
    let tck = tfhe::ClientKey::generate(tfhe::ConfigBuilder::default());
    let gck = gpufhe::ClientKey::generate(gpufhe::ConfigBuilder::default());
    let tcompressed = tfhe::CompressedCompactPublicKey::new(&tck);
    let gcompressed = gpufhe::CompressedCompactPublicKey::new(&gck);
    let tpk = tcompressed.decompress();
    let gpk = gcompressed.decompress();
    let values: Vec<u64> = (0..128u64).map(|i| i * 0x9e37_79b9).collect();
    let tlist = tfhe::CompactCiphertextList::builder(&tpk)
        .extend(values.iter().copied())
        .build();
    let mut builder = gpufhe::CompactCiphertextList::builder(&gpk);
    for &v in &values {
        builder.push(v);
    }
    let glist = builder.build();

    let limit = 1 << 30;
    let bytes_of = |write: &dyn Fn(&mut Vec<u8>)| {
        let mut bytes = Vec::new();
        write(&mut bytes);
        bytes.len()
    };
    use gpufhe::serialization::safe_serialize as g_ser;
    use tfhe::safe_serialization::safe_serialize as t_ser;
    let t_pk = bytes_of(&|b| t_ser(&tpk, b, limit).unwrap());
    let t_cpk = bytes_of(&|b| t_ser(&tcompressed, b, limit).unwrap());
    let t_list = bytes_of(&|b| t_ser(&tlist, b, limit).unwrap());
    let g_pk = bytes_of(&|b| g_ser(&gpk, b, limit).unwrap());
    let g_cpk = bytes_of(&|b| g_ser(&gcompressed, b, limit).unwrap());
    let g_list = bytes_of(&|b| g_ser(&glist, b, limit).unwrap());
    println!("| serialized bytes | TFHE-rs 1.8.2 | gpufhe |");
    println!("|---|---|---|");
    println!("| compact public key | {t_pk} | {g_pk} |");
    println!("| compressed compact public key | {t_cpk} | {g_cpk} |");
    println!("| compact list of 128 FheUint64 | {t_list} | {g_list} |");
}

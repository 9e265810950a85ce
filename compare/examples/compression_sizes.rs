//! Ciphertext compression, gpufhe against TFHE-rs, each on its default parameters
//! with its default compression parameters and serialized with its library's safe
//! serialization: a compressed list of 1, 8 and 64 FheUint64. Sizes, not times:
//! they do not depend on the machine.
//!
//!     cd compare && cargo run --release --example compression_sizes

use gpufhe::prelude::FheEncrypt as _;
use tfhe::prelude::FheEncrypt as _;

fn main() {
    let tconfig = tfhe::ConfigBuilder::default()
        .enable_compression(
            tfhe::shortint::parameters::COMP_PARAM_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128,
        )
        .build();
    let gconfig = gpufhe::ConfigBuilder::default()
        .enable_compression(gpufhe::shortint::parameters::COMP_PARAM_MESSAGE_2_CARRY_2)
        .build();
    let (tck, tsk) = tfhe::generate_keys(tconfig);
    let (gck, gsk) = gpufhe::generate_keys(gconfig);
    tfhe::set_server_key(tsk);
    gpufhe::set_server_key(gsk);
    let limit = 1 << 30;
    println!("| serialized bytes | TFHE-rs 1.8.2 | gpufhe |");
    println!("|---|---|---|");
    let one_t = tfhe::FheUint64::encrypt(7u64, &tck);
    let one_g = gpufhe::FheUint64::encrypt(7u64, &gck);
    let mut plain_t = Vec::new();
    tfhe::safe_serialization::safe_serialize(&one_t, &mut plain_t, limit).unwrap();
    let mut plain_g = Vec::new();
    gpufhe::serialization::safe_serialize(&one_g, &mut plain_g, limit).unwrap();
    println!(
        "| one FheUint64, uncompressed | {} | {} |",
        plain_t.len(),
        plain_g.len()
    );
    for count in [1usize, 8, 64] {
        let mut tb = tfhe::CompressedCiphertextListBuilder::new();
        let mut gb = gpufhe::CompressedCiphertextListBuilder::new();
        for i in 0..count as u64 {
            tb.push(tfhe::FheUint64::encrypt(i, &tck));
            gb.push(gpufhe::FheUint64::encrypt(i, &gck));
        }
        let tl = tb.build().unwrap();
        let gl = gb.build().unwrap();
        let mut tbytes = Vec::new();
        tfhe::safe_serialization::safe_serialize(&tl, &mut tbytes, limit).unwrap();
        let mut gbytes = Vec::new();
        gpufhe::serialization::safe_serialize(&gl, &mut gbytes, limit).unwrap();
        println!(
            "| compressed list of {count} FheUint64 | {} | {} |",
            tbytes.len(),
            gbytes.len()
        );
    }
}

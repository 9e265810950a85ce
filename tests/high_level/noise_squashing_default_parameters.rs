//! Noise squashing on TFHE-rs 1.8's default (secure) parameters: one keygen, one
//! `FheUint8` squashed and decrypted.

use gpufhe::prelude::*;
use gpufhe::shortint::NOISE_SQUASHING_PARAM_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128 as NS;
use gpufhe::{generate_keys, set_server_key, ConfigBuilder, FheUint8};

#[test]
fn squash_decrypts_on_the_default_parameters() {
    let start = std::time::Instant::now();
    let (ck, sk) = generate_keys(ConfigBuilder::default().enable_noise_squashing(NS));
    let keygen = start.elapsed();
    set_server_key(sk);
    let start = std::time::Instant::now();
    let squashed = FheUint8::encrypt(173u8, &ck).squash_noise().unwrap();
    let squash = start.elapsed();
    let v: u8 = squashed.decrypt(&ck);
    assert_eq!(v, 173);
    eprintln!("noise squashing, default parameters: keys {keygen:?}, one FheUint8 {squash:?}");
}

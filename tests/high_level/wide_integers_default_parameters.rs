//! The widths above 128 bits on the default (secure) parameters: `add` and `<` on
//! 160 and 512 bits (197 and 636 bootstraps), and a 2048-bit value encrypted,
//! decrypted and cast to 64 bits. One batch per width, so the blocks of the two
//! operations share bootstrap layers. The other operations run on the insecure test
//! parameters in `wide_integers.rs`.

use crate::common::counting_setup;

use gpufhe::integer::bigint::{U2048, U256, U512};
use gpufhe::prelude::*;
use gpufhe::{FheUint160, FheUint2048, FheUint512, FheUint64};

#[test]
fn add_and_lt_on_160_and_512_bits_and_a_2048_bit_cast() {
    let (ck, server_key) = counting_setup();
    let a = U256::MAX >> 97u32; // 159 bits
    let b = U256::ONE << 150u32;
    let (x, y) = (FheUint160::encrypt(a, ck), FheUint160::encrypt(b, ck));
    let (sum, lt) = server_key
        .run_batch(&[()], |_| (&x + &y, x.lt(&y)))
        .unwrap()
        .remove(0);
    assert_eq!(
        FheDecrypt::<U256>::decrypt(&sum, ck),
        (a + b) & (U256::MAX >> 96u32)
    );
    assert!(!lt.decrypt(ck));

    let a = U512::MAX - U512::from(3u8);
    let (x, y) = (
        FheUint512::encrypt(a, ck),
        FheUint512::encrypt(U512::from(5u8), ck),
    );
    let (sum, lt) = server_key
        .run_batch(&[()], |_| (&x + &y, y.lt(&x)))
        .unwrap()
        .remove(0);
    assert_eq!(FheDecrypt::<U512>::decrypt(&sum, ck), U512::ONE);
    assert!(lt.decrypt(ck));

    // 2048 bits: encryption, decryption and a cast on the default parameters. The
    // circuits bootstrap each 2-bit block on its own whatever the width, so the noise
    // of a 2048-bit addition is that of the 160- and 512-bit ones above; its 2,556
    // bootstraps (40 s of CI) run on the insecure parameters in `wide_integers.rs`.
    let a = (U2048::ONE << 2047u32) + U2048::from(u128::MAX);
    let x = FheUint2048::encrypt(a, ck);
    assert_eq!(FheDecrypt::<U2048>::decrypt(&x, ck), a);
    let low: u64 = FheUint64::cast_from(x).decrypt(ck);
    assert_eq!(low, u64::MAX);
}

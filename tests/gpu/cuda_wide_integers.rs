//! The widths above 128 bits and the small signed widths with a GPU server key:
//! `+`, `<`, `*` and casts on each new width family, one batch per family, every
//! result against the clear value. Skips without a GPU (the fake driver runs it in
//! CI on the small insecure parameters).

use crate::cuda_high_level::{gpu_keys, GPU0};

use gpufhe::integer::bigint::{I2048, I256, I512, U1024, U2048, U256, U512};
use gpufhe::prelude::*;
use gpufhe::{
    FheInt160, FheInt2, FheInt2048, FheInt512, FheUint1024, FheUint160, FheUint2048, FheUint512,
    FheUint64, FheUint8,
};

#[test]
fn new_widths_add_compare_multiply_and_cast_on_the_gpu() {
    let Some(keys) = gpu_keys() else { return };
    let (ck, key) = (&keys.client, &keys.gpu);

    // 160 bits: +, <, * (the only product: 80 blocks) and a cast to 64 bits.
    let (a, b) = (U256::MAX >> 97u32, (U256::ONE << 100u32) + U256::from(3u8));
    let (x, y) = (FheUint160::encrypt(a, ck), FheUint160::encrypt(b, ck));
    let (sum, lt, product, low) = key
        .run_batch(&[()], |_| {
            (&x + &y, y.lt(&x), &x * &y, FheUint64::cast_from(x.clone()))
        })
        .unwrap()
        .remove(0);
    assert_eq!(sum.current_device(), GPU0);
    let mask = U256::MAX >> 96u32;
    assert_eq!(FheDecrypt::<U256>::decrypt(&sum, ck), (a + b) & mask);
    assert!(lt.decrypt(ck));
    assert_eq!(
        FheDecrypt::<U256>::decrypt(&product, ck),
        a.wrapping_mul(b) & mask
    );
    assert_eq!(FheDecrypt::<u64>::decrypt(&low, ck), u64::MAX);

    // 512, 1024 and 2048 bits: +, < and casts between them.
    let a = U512::MAX - U512::from(1u8);
    let (x, y) = (
        FheUint512::encrypt(a, ck),
        FheUint512::encrypt(U512::from(9u8), ck),
    );
    let (sum, lt, wide) = key
        .run_batch(&[()], |_| {
            (&x + &y, x.lt(&y), FheUint2048::cast_from(x.clone()))
        })
        .unwrap()
        .remove(0);
    assert_eq!(FheDecrypt::<U512>::decrypt(&sum, ck), U512::from(7u8));
    assert!(!lt.decrypt(ck));
    assert_eq!(FheDecrypt::<U2048>::decrypt(&wide, ck), U2048::from(a));
    let w = FheUint1024::encrypt(U1024::ONE << 1000u32, ck);
    let doubled: U1024 = (&w + &w).decrypt(ck);
    assert_eq!(doubled, U1024::ONE << 1001u32);
    let big = FheUint2048::encrypt(U2048::MAX, ck);
    let (wrapped, below) = key
        .run_batch(&[()], |_| (&big + U2048::ONE, big.lt(U2048::MAX)))
        .unwrap()
        .remove(0);
    assert_eq!(FheDecrypt::<U2048>::decrypt(&wrapped, ck), U2048::ZERO);
    assert!(!below.decrypt(ck));
    let byte: u8 = FheUint8::cast_from(big).decrypt(ck);
    assert_eq!(byte, u8::MAX);

    // Signed: 2, 160, 512 and 2048 bits.
    let two = FheInt2::encrypt(-2i8, ck);
    assert_eq!(FheDecrypt::<i8>::decrypt(&(&two + 1i8), ck), -1);
    let s = FheInt160::encrypt(I256::from(-7i8), ck);
    let (p, neg) = key
        .run_batch(&[()], |_| (&s * I256::from(6i8), s.lt(0i8)))
        .unwrap()
        .remove(0);
    assert_eq!(FheDecrypt::<I256>::decrypt(&p, ck), I256::from(-42i8));
    assert!(neg.decrypt(ck));
    let m = FheInt512::encrypt(I512::MIN, ck);
    let extended: I2048 = FheInt2048::cast_from(m).decrypt(ck);
    assert_eq!(extended, I2048::from(I512::MIN.resize::<32>()));
}
